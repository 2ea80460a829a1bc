package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The quick start with its events on a broker, its broker killed mid-traffic: the start script's
 * Payara Micro with a broker provider. The outbox relay publishes {@code orders.placed.v1} to
 * {@code <scheme>:orders@shop/placed}, billing's processor reads it through an {@code @Incoming}
 * channel and writes invoice requests through an {@code @Outgoing} channel to {@code
 * <scheme>:billing@shop/invoices}, whose {@code @Incoming} sink runs through the consumer inbox. In
 * the middle of the traffic the broker is killed (SIGKILL) and started again 2 s later. Every
 * acknowledged order must be invoiced and shipped exactly once, and the console lists both
 * addresses, served by the broker's provider.
 */
final class BrokerChannelsRun {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();

  /** A broker of the test's own. */
  interface Broker {
    void kill() throws Exception;

    void start() throws Exception;
  }

  private BrokerChannelsRun() {}

  /**
   * Runs it for provider {@code scheme} (also the name in {@code MAILBOX_PROVIDERS}), with the
   * broker's own variables {@code brokerEnvironment}; returns the pid of the server (stopped).
   */
  static long run(String scheme, Broker broker, Map<String, String> brokerEnvironment)
      throws Exception {
    Path data =
        Path.of(System.getProperty("mailbox.testData"))
            .toAbsolutePath()
            .resolveSibling(scheme + "-data");
    String username = scheme + "-operator";
    String password = "Broker-" + UUID.randomUUID();
    String placed = scheme + ":orders@shop/placed";
    String invoices = scheme + ":billing@shop/invoices";
    MicroStartScript.deleteRecursively(data);
    int port = MicroStartScript.freePort();
    String base = "http://localhost:" + port;
    Map<String, String> environment = new HashMap<>(brokerEnvironment);
    environment.put("MAILBOX_CONSOLE_USERNAME", username);
    environment.put("MAILBOX_CONSOLE_PASSWORD", password);
    environment.put("MAILBOX_PROVIDERS", "mem,jdbc," + scheme);
    // MicroProfile Config reads the environment: the relay's route and billing's channels.
    environment.put("MAILBOX_OUTBOX_ROUTE_ORDERS_PLACED_V1", placed);
    environment.put("MP_MESSAGING_INCOMING_PLACED_ORDERS_ADDRESS", placed);
    environment.put("MP_MESSAGING_OUTGOING_INVOICES_ADDRESS", invoices);
    environment.put("MP_MESSAGING_INCOMING_INVOICES_IN_ADDRESS", invoices);
    long pid = MicroStartScript.start(REPOSITORY, port, data, environment).pid();
    try {
      check(scheme, broker, base, data, pid, username, password);
    } finally {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // a run that failed
    }
    return pid;
  }

  private static void check(
      String scheme,
      Broker broker,
      String base,
      Path data,
      long pid,
      String username,
      String password)
      throws Exception {
    OrderTraffic traffic = new OrderTraffic(4, List.of(base));
    Instant killedAt;
    try {
      awaitAcknowledged(traffic, 60, Duration.ofMinutes(2));
      broker.kill(); // SIGKILL while orders flow
      killedAt = Instant.now();
      Thread.sleep(2_000);
      broker.start();
      awaitAcknowledged(traffic, traffic.acknowledged().size() + 60, Duration.ofMinutes(2));
    } finally {
      traffic.close();
    }
    ConsoleApi console = new ConsoleApi(base, username, password);
    try {
      console.awaitEverythingDelivered(Duration.ofMinutes(3));
    } catch (AssertionError stuck) {
      Path dump = MicroStartScript.threadDump(pid, data);
      throw new AssertionError(stuck.getMessage() + " (the server's threads: " + dump + ")", stuck);
    }
    String snapshot = console.get("/console/api/snapshot");
    MicroStartScript.stop(pid, 90);

    OrderLedger ledger = OrderLedger.readQuickStart(data, traffic.acknowledged());
    System.out.printf(
        "%s channels: %d orders acknowledged (refused %s), the broker killed at %s and started"
            + " again 2 s later; %s%n",
        scheme,
        traffic.acknowledged().size(),
        traffic.refusalsByStatus(),
        killedAt,
        ledger.describe());
    assertThat(snapshot)
        .as("the console lists both " + scheme + ": addresses, served by their provider")
        .contains(
            "\"address\":\""
                + scheme
                + "://billing@shop/invoices\",\"provider\":\""
                + scheme
                + "\"")
        .contains(
            "\"address\":\"" + scheme + "://orders@shop/placed\",\"provider\":\"" + scheme + "\"");
    ledger.assertThePromiseHolds(
        "the events went through " + scheme + ":, its broker killed mid-run");
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
