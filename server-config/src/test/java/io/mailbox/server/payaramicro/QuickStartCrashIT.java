package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The promise on the product as shipped: the start script's server on its embedded defaults takes
 * the example's orders at concurrency 8 and is killed in the middle (SIGKILL, then SIGTERM), then
 * restarted on the same data folder. Every order answered 2xx must be in the database with both its
 * outbox rows, invoiced exactly once and shipped exactly once, with nothing dead-lettered or
 * parked; every order in the database, acknowledged or not, has both outbox rows; a graceful stop
 * refuses with 503 and Retry-After only. The figures are printed for docs/reliability.md.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QuickStartCrashIT {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  private static final Path DATA =
      Path.of(System.getProperty("mailbox.testData")).toAbsolutePath().resolveSibling("crash-data");
  private static final String USERNAME = "crash-operator";
  private static final String PASSWORD = "Crash-" + java.util.UUID.randomUUID();
  private static final int CLIENTS = 8;
  private static final Duration LOAD_BEFORE_STOP = Duration.ofSeconds(6);
  private static final Duration SETTLE = Duration.ofSeconds(150);

  /** Orders answered 2xx with committed:true, over every round. */
  private static final Set<String> ACKNOWLEDGED = ConcurrentHashMap.newKeySet();

  private static int port;
  private static long pid;

  @BeforeAll
  static void freshDataFolder() throws Exception {
    MicroStartScript.deleteRecursively(DATA);
    port = MicroStartScript.freePort();
  }

  @AfterAll
  static void stopWhatIsLeft() {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  @Test
  @Order(1)
  void aKillMinus9MidStreamLosesNoAcknowledgedOrderAndAppliesNoneTwice() throws Exception {
    crashAndRecover(true);
  }

  @Test
  @Order(2)
  void aGracefulStopMidStreamLosesNoAcknowledgedOrderAndAppliesNoneTwice() throws Exception {
    crashAndRecover(false);
  }

  private static void crashAndRecover(boolean kill) throws Exception {
    String round = kill ? "SIGKILL" : "SIGTERM";
    start();
    OrderTraffic traffic = new OrderTraffic(CLIENTS, java.util.List.of(base()));
    Thread.sleep(LOAD_BEFORE_STOP.toMillis());
    ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
    Instant stoppedAt = Instant.now();
    if (kill) {
      server.destroyForcibly(); // SIGKILL
    } else {
      server.destroy(); // SIGTERM: the server's own shutdown
    }
    server.onExit().get(90, TimeUnit.SECONDS);
    long stopMillis = Duration.between(stoppedAt, Instant.now()).toMillis();
    traffic.close();
    int acknowledged = traffic.acknowledged().size();
    ACKNOWLEDGED.addAll(traffic.acknowledged());
    assertThat(acknowledged).as("orders acknowledged before the " + round).isGreaterThan(20);

    Instant restart = Instant.now();
    long recoveryMillis;
    start();
    try {
      new ConsoleApi(base(), USERNAME, PASSWORD).awaitEverythingDelivered(SETTLE);
      recoveryMillis = Duration.between(restart, Instant.now()).toMillis();
    } finally {
      MicroStartScript.stop(pid, 90);
    }

    OrderLedger ledger = readTheDatabase();
    TreeMap<Integer, Integer> refusals = traffic.refusalsByStatus();
    System.out.printf(
        "QuickStartCrashIT %s: %d acknowledged this round (%d in all), %s; refused requests while"
            + " stopping %s (0 = no answer, -503 = 503 without Retry-After); stop took %d ms;"
            + " restart to all delivered %d ms%n",
        round,
        acknowledged,
        ACKNOWLEDGED.size(),
        ledger.describe(),
        refusals,
        stopMillis,
        recoveryMillis);
    ledger.assertThePromiseHolds("the " + round);
    if (!kill) {
      // A graceful stop answers what it refuses with 503 and Retry-After (issue 19), not the
      // server's 404 for an application it already stopped or a 500. Payara Micro still answers
      // in its own way in the last moments (the root context stopped, the listener not yet
      // closed: an empty 500) and for a servlet caught mid-destroy (an HTML 503): measured at a
      // few per client; before the shutdown filter and the root context, thousands.
      int unclean =
          refusals.getOrDefault(404, 0)
              + refusals.getOrDefault(500, 0)
              + refusals.getOrDefault(-503, 0);
      int answered =
          refusals.values().stream().mapToInt(Integer::intValue).sum()
              - refusals.getOrDefault(0, 0);
      assertThat(unclean)
          .as(
              "404, 500 and 503 without Retry-After while stopping gracefully, of %d answers: %s",
              answered, refusals)
          .isLessThanOrEqualTo(Math.max(5 * CLIENTS, answered / 20));
    }
  }

  /** Reads the H2 file once the server is gone (nothing else may open it while it runs). */
  private static OrderLedger readTheDatabase() throws Exception {
    return OrderLedger.readQuickStart(DATA, ACKNOWLEDGED);
  }

  private static void start() throws Exception {
    pid =
        MicroStartScript.start(
                REPOSITORY,
                port,
                DATA,
                Map.of("MAILBOX_CONSOLE_USERNAME", USERNAME, "MAILBOX_CONSOLE_PASSWORD", PASSWORD))
            .pid();
  }

  private static String base() {
    return "http://localhost:" + port;
  }
}
