package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.provider.nats.PrivateNatsServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The quick start with its events on NATS JetStream (issue 16): the start script's Payara Micro
 * with the {@code nats:} provider on a NATS server of the test's own. The outbox relay publishes
 * {@code orders.placed.v1} to {@code nats:orders@shop/placed}, billing's processor reads it through
 * an {@code @Incoming} channel and writes invoice requests through an {@code @Outgoing} channel to
 * {@code nats:billing@shop/invoices}, whose {@code @Incoming} sink runs through the consumer inbox.
 * In the middle of the traffic the NATS server is killed with SIGKILL and started again on its
 * store. Every acknowledged order must be invoiced and shipped exactly once, and the console lists
 * both NATS addresses.
 */
class NatsChannelsIT {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  private static final Path DATA =
      Path.of(System.getProperty("mailbox.testData")).toAbsolutePath().resolveSibling("nats-data");
  private static final String USERNAME = "nats-operator";
  private static final String PASSWORD = "Nats-" + UUID.randomUUID();
  private static final String PLACED = "nats:orders@shop/placed";
  private static final String INVOICES = "nats:billing@shop/invoices";

  private static long pid;

  @AfterAll
  static void stopWhatIsLeft() {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  @Test
  void theQuickStartsChannelsAndRelayRunOnNatsAndSurviveItsServerKilled() throws Exception {
    try (PrivateNatsServer nats = PrivateNatsServer.withJetStream()) {
      MicroStartScript.deleteRecursively(DATA);
      int port = MicroStartScript.freePort();
      String base = "http://localhost:" + port;
      pid =
          MicroStartScript.start(
                  REPOSITORY,
                  port,
                  DATA,
                  Map.ofEntries(
                      Map.entry("MAILBOX_CONSOLE_USERNAME", USERNAME),
                      Map.entry("MAILBOX_CONSOLE_PASSWORD", PASSWORD),
                      Map.entry("MAILBOX_PROVIDERS", "mem,jdbc,nats"),
                      Map.entry("MAILBOX_NATS_URL", nats.url()),
                      Map.entry("MAILBOX_NATS_CREATE_STREAM", "true"),
                      // MicroProfile Config reads the environment: the relay's route and billing's
                      // channels on nats:.
                      Map.entry("MAILBOX_OUTBOX_ROUTE_ORDERS_PLACED_V1", PLACED),
                      Map.entry("MP_MESSAGING_INCOMING_PLACED_ORDERS_ADDRESS", PLACED),
                      Map.entry("MP_MESSAGING_OUTGOING_INVOICES_ADDRESS", INVOICES),
                      Map.entry("MP_MESSAGING_INCOMING_INVOICES_IN_ADDRESS", INVOICES)))
              .pid();

      OrderTraffic traffic = new OrderTraffic(4, List.of(base));
      Instant killedAt;
      try {
        awaitAcknowledged(traffic, 60, Duration.ofMinutes(2));
        nats.kill(); // SIGKILL while orders flow
        killedAt = Instant.now();
        Thread.sleep(2_000);
        nats.start();
        awaitAcknowledged(traffic, traffic.acknowledged().size() + 60, Duration.ofMinutes(2));
      } finally {
        traffic.close();
      }
      ConsoleApi console = new ConsoleApi(base, USERNAME, PASSWORD);
      try {
        console.awaitEverythingDelivered(Duration.ofMinutes(3));
      } catch (AssertionError stuck) {
        Path dump = MicroStartScript.threadDump(pid, DATA);
        throw new AssertionError(
            stuck.getMessage() + " (the server's threads: " + dump + ")", stuck);
      }
      String snapshot = console.get("/console/api/snapshot");
      MicroStartScript.stop(pid, 90);

      OrderLedger ledger = OrderLedger.readQuickStart(DATA, traffic.acknowledged());
      System.out.printf(
          "NatsChannelsIT: %d orders acknowledged (refused %s), the NATS server killed at %s and"
              + " started again 2 s later; %s%n",
          traffic.acknowledged().size(), traffic.refusalsByStatus(), killedAt, ledger.describe());
      assertThat(snapshot)
          .as("the console lists both nats: addresses, served by the nats provider")
          .contains("\"address\":\"nats://billing@shop/invoices\",\"provider\":\"nats\"")
          .contains("\"address\":\"nats://orders@shop/placed\",\"provider\":\"nats\"");
      ledger.assertThePromiseHolds("the events went through NATS, its server killed mid-run");
    }
  }

  private static void awaitAcknowledged(OrderTraffic traffic, int orders, Duration within)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(within);
    while (traffic.acknowledged().size() < orders && Instant.now().isBefore(deadline)) {
      Thread.sleep(200);
    }
    assertThat(traffic.acknowledged())
        .as("orders acknowledged")
        .hasSizeGreaterThanOrEqualTo(orders);
  }
}
