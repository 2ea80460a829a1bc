package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A provider written outside the adapter ({@code examples/tiny-provider}, built from the kit alone)
 * dropped into the quick start with {@code MAILBOX_PROVIDER_JARS}: the adapter finds its factory,
 * starts its scheme, and billing's invoice channel runs on it — every order placed is invoiced and
 * shipped exactly once, and the console lists the {@code tiny:} address.
 */
class ThirdPartyProviderIT {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  private static final Path DATA =
      Path.of(System.getProperty("mailbox.testData"))
          .toAbsolutePath()
          .resolveSibling("third-party-data");
  private static final String USERNAME = "tiny-operator";
  private static final String PASSWORD = "Tiny-" + UUID.randomUUID();
  private static final String INVOICES = "tiny:billing@shop/invoices";
  private static final int ORDERS = 150;

  private static long pid;

  @AfterAll
  static void stopWhatIsLeft() {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  @Test
  void aProviderJarDroppedBesideTheShippedOnesCarriesAChannel() throws Exception {
    MicroStartScript.deleteRecursively(DATA);
    int port = MicroStartScript.freePort();
    String base = "http://localhost:" + port;
    MicroStartScript.Started started =
        MicroStartScript.start(
            REPOSITORY,
            port,
            DATA,
            Map.of(
                "MAILBOX_CONSOLE_USERNAME", USERNAME,
                "MAILBOX_CONSOLE_PASSWORD", PASSWORD,
                "MAILBOX_PROVIDERS", "mem,jdbc,tiny",
                "MAILBOX_PROVIDER_JARS", tinyProviderJar().toString(),
                // MicroProfile Config reads the environment: billing's channels on tiny:.
                "MP_MESSAGING_OUTGOING_INVOICES_ADDRESS", INVOICES,
                "MP_MESSAGING_INCOMING_INVOICES_IN_ADDRESS", INVOICES));
    pid = started.pid();

    OrderTraffic traffic = OrderTraffic.until(ORDERS, 4, base, Duration.ofMinutes(3));
    ConsoleApi console = new ConsoleApi(base, USERNAME, PASSWORD);
    console.awaitEverythingDelivered(Duration.ofMinutes(2));
    String snapshot = console.get("/console/api/snapshot");
    MicroStartScript.stop(pid, 90);

    OrderLedger ledger = OrderLedger.readQuickStart(DATA, traffic.acknowledged());
    System.out.printf(
        "ThirdPartyProviderIT: %d orders acknowledged with invoices on %s, %s%n",
        traffic.acknowledged().size(), INVOICES, ledger.describe());
    assertThat(traffic.acknowledged()).hasSizeGreaterThanOrEqualTo(ORDERS);
    // The console shows addresses in their canonical form, scheme://name.
    assertThat(snapshot)
        .as("the console lists the tiny: address, served by the tiny provider")
        .contains("\"address\":\"tiny://billing@shop/invoices\",\"provider\":\"tiny\"");
    ledger.assertThePromiseHolds("invoices went through a third-party provider");
  }

  /** The example provider's jar, built before this module (a test dependency). */
  private static Path tinyProviderJar() throws IOException {
    try (Stream<Path> built = Files.list(REPOSITORY.resolve("examples/tiny-provider/target"))) {
      return built
          .filter(p -> p.getFileName().toString().matches("tiny-provider-[^-]+(-SNAPSHOT)?\\.jar"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("examples/tiny-provider is not built"));
    }
  }
}
