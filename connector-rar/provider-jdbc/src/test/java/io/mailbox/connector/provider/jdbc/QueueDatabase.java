package io.mailbox.connector.provider.jdbc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.mariadb.jdbc.MariaDbDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/** A real database for the jdbc: suites, with the shipped queue DDL applied to a fresh table. */
final class QueueDatabase {
  private QueueDatabase() {}

  static DataSource h2() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:queue;DB_CLOSE_DELAY=-1;MODE=LEGACY");
    h2.setUser("sa");
    return fresh(h2, "h2");
  }

  static DataSource postgres() {
    PGSimpleDataSource postgres = new PGSimpleDataSource();
    postgres.setURL("jdbc:postgresql://127.0.0.1:5432/test");
    postgres.setUser("postgres");
    return fresh(postgres, "postgresql");
  }

  static DataSource mariadb() {
    try {
      MariaDbDataSource mariadb = new MariaDbDataSource("jdbc:mariadb://127.0.0.1:3306/test");
      mariadb.setUser("root");
      return fresh(mariadb, "mariadb");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static DataSource fresh(DataSource dataSource, String kind) {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS MBX_QUEUE");
      statement.execute("DROP TABLE IF EXISTS MBX_QUEUE_SEEN");
      Path sql =
          Path.of(System.getProperty("mailbox.sql", "../../server-config/sql"))
              .resolve(kind)
              .resolve("queue.sql");
      String withoutComments = Files.readString(sql).replaceAll("(?m)^--.*$", "");
      for (String ddl : withoutComments.split(";")) {
        if (!ddl.isBlank()) {
          statement.execute(ddl.strip());
        }
      }
      return dataSource;
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException("Could not prepare the " + kind + " queue table", e);
    }
  }
}
