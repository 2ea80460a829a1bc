package io.mailbox.connector.provider.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Creates {@code MBX_QUEUE} (and its dedupe table) with the DDL the rar ships for the database's
 * product — {@code server-config/sql/<h2|postgresql|mariadb>/queue.sql} — when it is missing.
 */
final class QueueTable {
  private QueueTable() {}

  static void createIfMissing(JdbcSql db) {
    db.run(
        c -> {
          if (!exists(c)) {
            create(c);
          }
          return null;
        });
  }

  private static boolean exists(Connection c) throws SQLException {
    for (String name : new String[] {"MBX_QUEUE", "mbx_queue"}) {
      try (ResultSet tables = c.getMetaData().getTables(null, null, name, null)) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }

  private static void create(Connection c) throws SQLException {
    String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
    String kind =
        product.contains("postgres") ? "postgresql" : product.contains("h2") ? "h2" : "mariadb";
    try (InputStream ddl = QueueTable.class.getResourceAsStream("sql/" + kind + "/queue.sql");
        Statement statement = c.createStatement()) {
      String text =
          new String(ddl.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?m)^--.*$", "");
      for (String part : text.split(";")) {
        if (!part.isBlank()) {
          statement.execute(part.strip());
        }
      }
    } catch (IOException e) {
      throw new SQLException("the bundled queue DDL cannot be read", e);
    }
  }
}
