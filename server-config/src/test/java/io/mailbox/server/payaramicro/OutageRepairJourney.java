package io.mailbox.server.payaramicro;

import static io.mailbox.server.payaramicro.SmokeServer.DATA;
import static io.mailbox.server.payaramicro.SmokeServer.REPOSITORY;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER_PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.api;
import static io.mailbox.server.payaramicro.SmokeServer.signInAsOperator;
import static io.mailbox.server.payaramicro.SmokeServer.startServer;
import static io.mailbox.server.payaramicro.SmokeServer.stopServer;
import static io.mailbox.server.payaramicro.SmokeServer.url;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.server.browser.ConsoleBrowser;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;

/**
 * An operator repairs, from the console, what an outage left in the database; for {@link
 * RunScriptSmokeIT}, whose server this journey stops and starts again.
 */
final class OutageRepairJourney {
  private OutageRepairJourney() {}

  /**
   * The state an outage leaves behind, written straight into the server's database while it is
   * stopped (nothing but the server may open it while it runs: no TCP listener): an outbox row the
   * relay gave up on and a record parked at the end of a dead-letter chain. Then, after a restart,
   * an operator fixes both from the console.
   */
  static void anOperatorReleasesAFailedOutboxRowAndPurgesAParkedRecordFromTheConsole()
      throws Exception {
    String rowId = "ship-released-" + UUID.randomUUID();
    String parkedKey = "parked-" + UUID.randomUUID();
    String parkedAt = "jdbc://shipping@shop/orders_dlq";
    String url = "jdbc:h2:" + DATA.resolve("h2/mailbox") + ";MODE=LEGACY;IFEXISTS=TRUE";
    long now = System.currentTimeMillis();
    stopServer();
    try (Connection db = DriverManager.getConnection(url, "", "")) {
      String envelope =
          "{\"id\":\""
              + rowId
              + "\",\"type\":\"shipping.requested\",\"version\":1,\"occurredAt\":\""
              + Instant.ofEpochMilli(now - 60_000)
              + "\",\"data\":{\"orderId\":\"released-order\",\"item\":\"book\",\"quantity\":1}}";
      try (PreparedStatement row =
          db.prepareStatement(
              "INSERT INTO MBX_OUTBOX (ID, TOPIC, ADDRESS, ENVELOPE, ORDERING_KEY, POSITION,"
                  + " CREATED_AT, STATUS, ATTEMPTS, AVAILABLE_AT, CLAIM_VERSION, LEASE_UNTIL,"
                  + " LAST_ERROR) VALUES (?, 'shipping.requested.v1', 'jdbc:shipping@shop/orders',"
                  + " ?, 'released-order', ?, ?, 'FAILED', 10, 0, 20, 0, ?)")) {
        row.setString(1, rowId);
        row.setString(2, envelope);
        row.setString(3, String.format("%016d%s", (now - 60_000) * 1000, "5a0e5a0e"));
        row.setLong(4, now - 60_000);
        row.setString(5, "MBX-2003 the courier gateway did not answer (simulated outage)");
        row.executeUpdate();
      }
      String record =
          "{\"body\":\"{}\",\"from\":null,\"headers\":{\"mbx-dead-letter-error\":"
              + "\"java.lang.IllegalStateException: label printer jammed\",\"mbx-dead-letter-reason\":"
              + "\"fatal\",\"mbx-dead-letter-terminal\":\"true\",\"mbx-dead-letter-topic\":"
              + "\"jdbc://shipping@shop/orders_dlq\",\"mbx-send-id\":\""
              + parkedKey
              + "\"},\"id\":\"ship-parked\",\"meta\":{},\"to\":\""
              + parkedAt
              + "\"}";
      try (PreparedStatement parked =
          db.prepareStatement(
              "INSERT INTO MBX_QUEUE (COPY_KEY, ADDRESS_HASH, ADDRESS, SEQ, MESSAGE_ID, MESSAGE,"
                  + " STATE, LEASE_ID, VISIBLE_AT, DELIVERIES, UPDATED_AT)"
                  + " VALUES (?, ?, ?, ?, 'ship-parked', ?, 'PARKED', NULL, 0, 0, ?)")) {
        parked.setString(1, parkedKey);
        parked.setString(
            2,
            HexFormat.of()
                .formatHex(
                    MessageDigest.getInstance("SHA-256")
                        .digest(parkedAt.getBytes(StandardCharsets.UTF_8))));
        parked.setString(3, parkedAt);
        parked.setLong(4, now * 1000);
        parked.setString(5, record);
        parked.setLong(6, now);
        parked.executeUpdate();
      }
    }

    startServer();

    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("navigation");

      browser.open(url("/console/outbox"));
      browser.waitForGridCell(rowId);
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/outbox-failed.png"));
      browser.clickGridCell(rowId);
      browser.click("release-retry");
      String[] sent = {"GET", "/console/api/outbox/rows?status=sent&limit=1000", null};
      Instant deadline = Instant.now().plusSeconds(30);
      while (!api(sent, VIEWER, VIEWER_PASSWORD).body().contains(rowId)) {
        assertThat(Instant.now()).as("the released row was relayed").isBefore(deadline);
        Thread.sleep(200);
      }

      browser.open(url("/console/parked?address=" + parkedAt));
      browser.waitForGridCell("ship-parked");
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/parked.png"));
      browser.clickGridCell("ship-parked");
      browser.click("purge-selected");
      String[] parked = {"GET", "/console/api/parked?address=" + parkedAt, null};
      Instant purged = Instant.now().plusSeconds(10);
      while (api(parked, VIEWER, VIEWER_PASSWORD).body().contains(parkedKey)) {
        assertThat(Instant.now()).as("the parked record was purged").isBefore(purged);
        Thread.sleep(200);
      }
    }
    assertThat(
            api(new String[] {"GET", "/console/api/audit?limit=100", null}, VIEWER, VIEWER_PASSWORD)
                .body())
        .contains("\"action\":\"outbox.release-retry\",\"target\":\"" + rowId)
        .contains("\"action\":\"parked.purge\"");
  }
}
