package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;

/**
 * What the example's database says about its orders once everything was delivered: the figures of
 * issue 19's promise, read over JDBC from H2 or PostgreSQL (the SQL is portable between the two).
 *
 * @param orders orders in the database
 * @param lost acknowledged orders missing
 * @param withoutOutboxRows acknowledged orders missing either outbox row
 * @param unacknowledgedWithoutOutboxRows orders never acknowledged (in flight at a crash) that
 *     committed without both outbox rows: committed together must mean surviving together
 * @param notInvoiced acknowledged orders never invoiced
 * @param invoicedTwice orders with more than one invoice
 * @param notShipped acknowledged orders never shipped
 * @param shippedTwice orders with more than one shipment
 * @param deadLetters copies on a dead-letter address
 * @param parked inbox deliveries parked or discarded (a failure counter of a delivery processed
 *     later is not one)
 */
record OrderLedger(
    int orders,
    int lost,
    int withoutOutboxRows,
    int unacknowledgedWithoutOutboxRows,
    int notInvoiced,
    int invoicedTwice,
    int notShipped,
    int shippedTwice,
    int deadLetters,
    int parked) {

  private static final String WITHOUT_OUTBOX_ROWS =
      "SELECT COUNT(*) FROM SHOP_ORDER o WHERE (NOT EXISTS (SELECT 1 FROM MBX_OUTBOX x"
          + " WHERE x.ID = 'ship-' || o.ID) OR NOT EXISTS (SELECT 1 FROM MBX_OUTBOX x"
          + " WHERE x.TOPIC = 'orders.placed.v1' AND x.ENVELOPE LIKE '%' || o.ID || '%'))";

  /** Reads the figures; {@code acknowledged} are the orders answered 2xx. */
  static OrderLedger read(Connection db, Set<String> acknowledged) throws Exception {
    try (Statement s = db.createStatement()) {
      // LOCAL is H2's spelling; PostgreSQL takes TEMPORARY alone.
      boolean h2 = db.getMetaData().getDatabaseProductName().startsWith("H2");
      s.execute(
          (h2 ? "CREATE LOCAL TEMPORARY TABLE" : "CREATE TEMPORARY TABLE")
              + " ACKED(ID VARCHAR(64) PRIMARY KEY)");
    }
    try (PreparedStatement insert = db.prepareStatement("INSERT INTO ACKED VALUES (?)")) {
      for (String id : acknowledged) {
        insert.setString(1, id);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    return new OrderLedger(
        count(db, "SELECT COUNT(*) FROM SHOP_ORDER"),
        count(
            db,
            "SELECT COUNT(*) FROM ACKED a WHERE NOT EXISTS"
                + " (SELECT 1 FROM SHOP_ORDER o WHERE o.ID = a.ID)"),
        count(db, WITHOUT_OUTBOX_ROWS + " AND o.ID IN (SELECT ID FROM ACKED)"),
        count(db, WITHOUT_OUTBOX_ROWS + " AND o.ID NOT IN (SELECT ID FROM ACKED)"),
        count(
            db,
            "SELECT COUNT(*) FROM ACKED o WHERE NOT EXISTS"
                + " (SELECT 1 FROM SHOP_INVOICE i WHERE i.ORDER_ID = o.ID)"),
        count(
            db,
            "SELECT COUNT(*) FROM (SELECT ORDER_ID FROM SHOP_INVOICE GROUP BY ORDER_ID"
                + " HAVING COUNT(*) > 1) twice"),
        count(
            db,
            "SELECT COUNT(*) FROM ACKED o WHERE NOT EXISTS"
                + " (SELECT 1 FROM SHOP_SHIPMENT s WHERE s.ORDER_ID = o.ID)"),
        count(
            db,
            "SELECT COUNT(*) FROM (SELECT ORDER_ID FROM SHOP_SHIPMENT GROUP BY ORDER_ID"
                + " HAVING COUNT(*) > 1) twice"),
        count(db, "SELECT COUNT(*) FROM MBX_QUEUE WHERE ADDRESS LIKE '%\\_dlq%' ESCAPE '\\'"),
        count(db, "SELECT COUNT(*) FROM MBX_INBOX WHERE STATUS IN ('PARKED', 'DISCARDED')"));
  }

  /** One line with every figure, for the test's output and docs/reliability.md. */
  /**
   * Reads the quick start's H2 file in {@code data} once its server is gone (nothing else may open
   * it while the server runs).
   */
  static OrderLedger readQuickStart(java.nio.file.Path data, java.util.Set<String> acknowledged)
      throws Exception {
    String url = "jdbc:h2:" + data.resolve("h2/mailbox") + ";MODE=LEGACY;IFEXISTS=TRUE";
    try (java.sql.Connection db = java.sql.DriverManager.getConnection(url, "", "")) {
      return read(db, acknowledged);
    }
  }

  String describe() {
    return String.format(
        "%d orders in the database, lost %d, acknowledged without outbox rows %d (unacknowledged"
            + " but committed %d), invoiced twice %d, shipped twice %d, not invoiced %d, not"
            + " shipped %d, dead letters %d, parked %d",
        orders,
        lost,
        withoutOutboxRows,
        unacknowledgedWithoutOutboxRows,
        invoicedTwice,
        shippedTwice,
        notInvoiced,
        notShipped,
        deadLetters,
        parked);
  }

  /** Issue 19's promise: nothing committed lost, nothing applied twice, nothing left aside. */
  void assertThePromiseHolds(String after) {
    assertThat(lost).as("acknowledged orders missing after " + after).isZero();
    assertThat(withoutOutboxRows).as("acknowledged orders without both outbox rows").isZero();
    // Committed together means surviving together: an order whose commit was in flight at a
    // crash is either gone or complete, acknowledged or not.
    assertThat(unacknowledgedWithoutOutboxRows)
        .as("orders committed without both outbox rows (their commit was in flight)")
        .isZero();
    assertThat(notInvoiced).as("acknowledged orders never invoiced").isZero();
    assertThat(invoicedTwice).as("orders invoiced twice").isZero();
    assertThat(notShipped).as("acknowledged orders never shipped").isZero();
    assertThat(shippedTwice).as("orders shipped twice").isZero();
    assertThat(deadLetters).as("dead letters").isZero();
    assertThat(parked).as("parked inbox deliveries").isZero();
  }

  private static int count(Connection db, String sql) throws Exception {
    try (Statement s = db.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
