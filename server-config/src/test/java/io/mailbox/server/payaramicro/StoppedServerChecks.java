package io.mailbox.server.payaramicro;

import static io.mailbox.server.payaramicro.SmokeServer.DATA;
import static io.mailbox.server.payaramicro.SmokeServer.FIXED_ORDERS;
import static io.mailbox.server.payaramicro.SmokeServer.OPERATOR_SIGN_INS;
import static io.mailbox.server.payaramicro.SmokeServer.RATE_ORDERS;
import static io.mailbox.server.payaramicro.SmokeServer.USERNAME;
import static io.mailbox.server.payaramicro.SmokeServer.amqpPort;
import static io.mailbox.server.payaramicro.SmokeServer.configuredSecrets;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;

/**
 * What {@link RunScriptSmokeIT} checks once its server is stopped: these depend on what every test
 * did (the secrets it sent, the orders it committed, the operator's sign-ins), so they run once, in
 * its {@code @AfterAll}, after the last test.
 */
final class StoppedServerChecks {
  private StoppedServerChecks() {}

  /**
   * Issue 20: after the whole run, shutdown included, none of the configured secrets is anywhere in
   * the server's log (the current file and the kept ones, payara-micro.log*), although the run
   * signed in, was refused sign-ins and read the broker URI.
   */
  static void assertNoConfiguredSecretIsInTheLog() throws IOException {
    List<Path> logs;
    try (var files = Files.list(DATA)) {
      logs = files.filter(f -> f.getFileName().toString().startsWith("payara-micro.log")).toList();
    }
    assertThat(logs).as("the server's log in " + DATA).isNotEmpty();
    String all = "";
    for (Path log : logs) {
      all += new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1);
    }
    assertThat(all)
        .as("the adapter's start line shows the broker URI without its credentials")
        .contains("amqp://***@127.0.0.1:" + amqpPort());
    for (String secret : configuredSecrets()) {
      assertThat(all).as("a configured secret in " + logs).doesNotContain(secret);
    }
  }

  /**
   * What the server committed is on disk in the data folder once it is gone (a restart finds it),
   * read straight from the H2 file: the audited sign-ins and API changes; for the two committed
   * orders (the rolled-back one left nothing) both events sent through the outbox, the API's and
   * the outbox channel's; one inbox marker and one invoice per order.
   */
  static void assertCommittedRowsOutliveTheServer() throws Exception {
    int committedOrders = FIXED_ORDERS + RATE_ORDERS.get();
    String url = "jdbc:h2:" + DATA.resolve("h2/mailbox") + ";MODE=LEGACY;IFEXISTS=TRUE";
    try (Connection db = DriverManager.getConnection(url, "", "")) {
      assertThat(
              count(
                  db,
                  "SELECT COUNT(*) FROM MBX_AUDIT WHERE ACTION = 'console.sign-in' AND ACTOR = '"
                      + USERNAME
                      + "' AND RESULT = 'SUCCEEDED'"))
          .as("every sign-in of the operator in the browser tests, each audited once")
          .isEqualTo(OPERATOR_SIGN_INS.get());
      assertThat(
              count(
                  db,
                  "SELECT COUNT(*) FROM MBX_AUDIT WHERE ACTION = 'console.sign-in' AND ACTOR = '"
                      + USERNAME
                      + "' AND RESULT = 'REFUSED'"))
          .isEqualTo(1);
      assertThat(
              count(
                  db,
                  "SELECT COUNT(*) FROM MBX_AUDIT WHERE ACTION = 'address.recover' AND ACTOR = '"
                      + USERNAME
                      + "'"))
          .as("the API's changes are audited in the same table")
          .isPositive();
      assertThat(count(db, "SELECT COUNT(*) FROM SHOP_ORDER")).isEqualTo(committedOrders);
      assertThat(
              count(
                  db,
                  "SELECT COUNT(*) FROM MBX_OUTBOX WHERE TOPIC = 'orders.placed.v1' AND STATUS = 'SENT'"))
          .isEqualTo(committedOrders);
      assertThat(
              count(
                  db,
                  "SELECT COUNT(*) FROM MBX_OUTBOX WHERE TOPIC = 'shipping.requested.v1' AND STATUS = 'SENT'"))
          .as("one per order, and the failed row an operator released")
          .isEqualTo(committedOrders + 1);
      assertThat(count(db, "SELECT COUNT(*) FROM MBX_OUTBOX WHERE STATUS <> 'SENT'")).isZero();
      assertThat(
              count(
                  db,
                  "SELECT COUNT(*) FROM MBX_INBOX WHERE CONSUMER = 'billing-ledger' AND STATUS = 'PROCESSED'"))
          .isEqualTo(committedOrders);
      assertThat(count(db, "SELECT COUNT(*) FROM SHOP_INVOICE")).isEqualTo(committedOrders);
    }
  }

  private static long count(Connection db, String sql) throws Exception {
    try (PreparedStatement query = db.prepareStatement(sql);
        ResultSet rows = query.executeQuery()) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
