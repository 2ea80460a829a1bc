package io.mailbox.server.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.jdbc.JdbcProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.server.browser.ConsoleBrowser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A benchmark, not a test (issue 21, item 5; run by {@code bin/bench dashboard}, never by the
 * build): the console's dashboard with 100 and with 10,000 addresses. For each, a data folder's
 * embedded database is filled first (one message at each address), Payara Micro is started on it by
 * the README's script, an operator signs in in headless Chromium, and the dashboard is opened
 * {@link #LOADS} times: the time from asking for the page to the first address row shown. Prints
 * the medians and the ratio (target: at most 3).
 */
class DashboardScaleBench {
  private static final int LOADS = 7;

  @Test
  void timeToTheFirstRowsWith100And10000Addresses() throws Exception {
    int small = Integer.getInteger("dashboard.small", 100);
    int large = Integer.getInteger("dashboard.large", 10_000);
    double few = firstRowsMillis(small);
    double many = firstRowsMillis(large);
    System.out.printf(
        "dashboard: first rows with %,d addresses %.0f ms, with %,d addresses %.0f ms; ratio %.2f"
            + " (target <= 3)%n",
        small, few, large, many, many / few);
  }

  /** The median time to the first rows over {@link #LOADS} loads, with {@code addresses}. */
  private static double firstRowsMillis(int addresses) throws Exception {
    Path data = ServerScript.freshData("dashboard-" + addresses);
    fill(data, addresses);
    int port = ServerScript.freePort();
    try {
      ServerScript.run(
          "server-config/payara-micro/start-micro.sh",
          Map.of("MAILBOX_HTTP_PORT", Integer.toString(port), "MAILBOX_DATA", data.toString()),
          6,
          "--detach");
      String console = "http://localhost:" + port + "/console/";
      try (ConsoleBrowser browser = new ConsoleBrowser()) {
        browser.open(console);
        browser.signIn(ServerScript.OPERATOR, ServerScript.PASSWORD);
        awaitAddressRows(browser);
        double[] millis = new double[LOADS];
        for (int load = 0; load < LOADS; load++) {
          long began = System.nanoTime();
          browser.open(console);
          awaitAddressRows(browser);
          millis[load] = (System.nanoTime() - began) / 1e6;
        }
        System.out.printf(
            "dashboard with %,d addresses: first rows in %s ms%n",
            addresses, java.util.Arrays.toString(millis));
        java.util.Arrays.sort(millis);
        return millis[LOADS / 2];
      }
    } finally {
      PayaraMicroScenariosIT.stopByPid(data.resolve("payara-micro.pid"));
    }
  }

  /** Waits until the grid shows a bench address (the rows are sorted: queue-0 comes early). */
  private static void awaitAddressRows(ConsoleBrowser browser) {
    new WebDriverWait(browser.driver(), Duration.ofSeconds(60))
        .until(d -> browser.gridCells().stream().anyMatch(c -> c.startsWith("jdbc://bench@")));
  }

  /** One message at each of {@code addresses} addresses, in the data folder's database. */
  private static void fill(Path data, int addresses) throws Exception {
    Files.createDirectories(data.resolve("h2"));
    JdbcDataSource database = new JdbcDataSource();
    database.setURL("jdbc:h2:" + data.resolve("h2/mailbox") + ";WRITE_DELAY=0;MODE=LEGACY");
    database.setUser(""); // the account Payara Micro's H2 pool uses
    database.setPassword("");
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(database, Clock.systemUTC(), new ExecutorScheduler(), true));
    provider.start();
    try {
      for (int from = 0; from < addresses; from += 500) {
        List<MailMessage> batch = new ArrayList<>(500);
        for (int i = from; i < Math.min(from + 500, addresses); i++) {
          batch.add(
              MailMessage.to(MailAddress.parse(String.format("jdbc:bench@shop/queue-%05d", i)))
                  .id("m-" + i)
                  .body("{}")
                  .build());
        }
        provider.postAll(batch);
      }
      assertThat(provider.enumerate().orElseThrow()).hasSizeGreaterThanOrEqualTo(addresses);
    } finally {
      provider.stop(false);
    }
  }
}
