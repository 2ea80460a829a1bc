package io.mailbox.benchmarks;

import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The outbox table the relay benchmarks use: embedded H2 (tables made by EclipseLink), or a fresh
 * PostgreSQL database on the machine's server (127.0.0.1:5432, user postgres) with the shipped DDL,
 * as a deployment has it.
 */
final class OutboxDatabase implements AutoCloseable {
  private static final String PG_SERVER = "jdbc:postgresql://127.0.0.1:5432/";
  private static final String PG_DATABASE = "mailbox_bench_outbox";
  private static final String H2_URL = "jdbc:h2:mem:relay-bench;DB_CLOSE_DELAY=-1;MODE=LEGACY";

  final String kind;
  final String jdbcUrl;
  final String user;
  final EntityManagerFactory entities;

  private OutboxDatabase(String kind, String jdbcUrl, String user, EntityManagerFactory entities) {
    this.kind = kind;
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.entities = entities;
  }

  /** {@code postgresql} or {@code h2}. */
  static OutboxDatabase open(String kind) throws Exception {
    if (kind.equals("h2")) {
      return new OutboxDatabase(
          kind, H2_URL, "sa", Persistence.createEntityManagerFactory("mailbox-bench"));
    }
    if (!kind.equals("postgresql")) {
      throw new IllegalArgumentException("database: postgresql or h2, not " + kind);
    }
    try (Connection c = DriverManager.getConnection(PG_SERVER + "postgres", "postgres", "");
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + PG_DATABASE);
      s.execute("CREATE DATABASE " + PG_DATABASE);
    }
    String url = PG_SERVER + PG_DATABASE;
    try (Connection c = DriverManager.getConnection(url, "postgres", "");
        Statement s = c.createStatement()) {
      String ddl = Files.readString(Path.of("server-config/sql/postgresql/outbox.sql"));
      for (String statement : ddl.replaceAll("(?m)^--.*$", "").split(";")) {
        if (!statement.isBlank()) {
          s.execute(statement);
        }
      }
    }
    return new OutboxDatabase(
        kind,
        url,
        "postgres",
        Persistence.createEntityManagerFactory(
            "mailbox-outbox-pg-bench",
            Map.of(
                "jakarta.persistence.jdbc.url", url,
                "jakarta.persistence.jdbc.user", "postgres",
                "jakarta.persistence.jdbc.password", "")));
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, user, "");
  }

  /** Empties the table between measured runs, so each starts from the same state. */
  void empty() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(kind.equals("h2") ? "DELETE FROM MBX_OUTBOX" : "TRUNCATE MBX_OUTBOX");
      if (!kind.equals("h2")) {
        s.execute("VACUUM ANALYZE MBX_OUTBOX");
      }
    }
  }

  /**
   * Brings the planner's statistics up to date after a run's rows were written, as autovacuum does
   * on a table in use: without it PostgreSQL plans the relay's page as a scan and sort of every
   * pending row (8-17 ms a page instead of 0.4 ms; docs/benchmarks.md shows both).
   */
  void analyze() throws SQLException {
    if (kind.equals("postgresql")) {
      try (Connection c = connect();
          Statement s = c.createStatement()) {
        s.execute("ANALYZE MBX_OUTBOX");
      }
    }
  }

  @Override
  public void close() {
    entities.close();
  }
}
