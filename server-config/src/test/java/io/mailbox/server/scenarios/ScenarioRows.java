package io.mailbox.server.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * What the scenarios leave in an external database, read after the server stopped: orders, outbox
 * rows, inbox markers and the audited replay are there, so the scenarios did not pass on a fallback
 * database.
 */
final class ScenarioRows {
  private ScenarioRows() {}

  static void assertIn(String jdbcUrl, String user, String password) throws Exception {
    try (Connection database = DriverManager.getConnection(jdbcUrl, user, password);
        Statement statement = database.createStatement()) {
      assertThat(count(statement, "SHOP_ORDER")).as("orders").isPositive();
      assertThat(count(statement, "MBX_OUTBOX")).as("outbox rows").isPositive();
      assertThat(count(statement, "MBX_INBOX")).as("inbox markers").isPositive();
      assertThat(count(statement, "MBX_AUDIT")).as("audited replay").isPositive();
    }
  }

  private static long count(Statement statement, String table) throws Exception {
    try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
