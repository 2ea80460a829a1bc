package io.mailbox.server.payaramicro;

import static io.mailbox.server.payaramicro.SmokeServer.ALERTED;
import static io.mailbox.server.payaramicro.SmokeServer.PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.RATE_ORDERS;
import static io.mailbox.server.payaramicro.SmokeServer.REPOSITORY;
import static io.mailbox.server.payaramicro.SmokeServer.USERNAME;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER_PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.api;
import static io.mailbox.server.payaramicro.SmokeServer.assertJsonRefusal;
import static io.mailbox.server.payaramicro.SmokeServer.awaitProgress;
import static io.mailbox.server.payaramicro.SmokeServer.basic;
import static io.mailbox.server.payaramicro.SmokeServer.call;
import static io.mailbox.server.payaramicro.SmokeServer.get;
import static io.mailbox.server.payaramicro.SmokeServer.jsonString;
import static io.mailbox.server.payaramicro.SmokeServer.placeOrder;
import static io.mailbox.server.payaramicro.SmokeServer.signInAsOperator;
import static io.mailbox.server.payaramicro.SmokeServer.url;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.server.browser.ConsoleBrowser;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What {@link RunScriptSmokeIT} reads of the server's measurements: the alert rule set at start,
 * the address view's rates, the relay's and the addresses' metrics in both exports.
 */
final class MetricsAndAlertsChecks {
  /** A rate reading above zero (an interval without traffic reads 0.0). */
  private static final Pattern POSTED_SOME =
      Pattern.compile("\"postedPerSecond\":(0\\.[0-9]*[1-9]|[1-9])");

  private static final Pattern DELIVERED_SOME =
      Pattern.compile("\"deliveredPerSecond\":(0\\.[0-9]*[1-9]|[1-9])");

  private MetricsAndAlertsChecks() {}

  static void aBacklogOverItsAlertRuleShowsOnTheDashboardInReadinessAndInTheMetricsUntilPurged()
      throws Exception {
    for (int i = 0; i < 3; i++) {
      String body = "{\"address\":\"" + ALERTED + "\",\"body\":\"alert " + i + "\"}";
      assertThat(
              api(
                      new String[] {"POST", "/console/api/addresses/test-message", body},
                      USERNAME,
                      PASSWORD)
                  .statusCode())
          .isEqualTo(200);
    }
    String alerts = awaitAlerts(body -> body.contains("\"address\":\"" + ALERTED + "\""));
    assertThat(alerts)
        .contains(
            "{\"name\":\"smoke-backlog\",\"addresses\":\""
                + ALERTED
                + "*\",\"limits\":{\"backlog\":2}}")
        .contains(
            "\"rule\":\"smoke-backlog\",\"address\":\""
                + ALERTED
                + "\",\"measure\":\"backlog\",\"value\":3,\"limit\":2");
    assertThat(awaitAlerts(body -> body.contains("\"rule\":\"smoke-waiting\"")))
        .as("the jdbc: provider tells how long the head of the queue has waited (over 1 s)")
        .contains(
            "\"rule\":\"smoke-waiting\",\"address\":\""
                + ALERTED
                + "\",\"measure\":\"oldest-unread\",\"value\":");
    HttpResponse<String> ready = get("/health/ready");
    assertThat(ready.body())
        .as("readiness names the rule, never the address (it is public)")
        .contains("threshold:smoke-backlog")
        .doesNotContain("smoke@console/alerts");
    assertThat(ready.statusCode())
        .as("an alert does not take the server out of service")
        .isEqualTo(200);
    String metrics =
        api(new String[] {"GET", "/console/api/metrics", null}, VIEWER, VIEWER_PASSWORD).body();
    assertThat(metrics)
        .contains("mailbox_alerts_active{rule=\"smoke-backlog\"} 1\n")
        .contains("mailbox_alert_breaches_total{rule=\"smoke-backlog\"} 1\n");
    String application = get("/metrics?scope=application").body();
    assertThat(sample(application, "mailbox_alerts_active", "rule=\"smoke-backlog\""))
        .as(application)
        .isEqualTo(1.0);
    assertThat(sample(application, "mailbox_alert_breaches_total", "rule=\"smoke-backlog\""))
        .isEqualTo(1.0);
    assertJsonRefusal(
        call(
            "GET",
            "/console/api/alerts?limit=0",
            null,
            null,
            "Authorization",
            basic(VIEWER, VIEWER_PASSWORD)),
        400,
        "MBX-4022",
        null);

    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("addresses");
      browser.type("address-filter", "smoke@console");
      browser.waitForGridCell(ALERTED);
      new WebDriverWait(browser.driver(), Duration.ofSeconds(20))
          .until(
              d ->
                  browser
                      .waitFor("alerts-active")
                      .getText()
                      .contains("smoke-backlog: " + ALERTED + " has backlog 3 > 2"));
      assertThat(browser.waitFor("alerts-active").getText())
          .contains("smoke-waiting: " + ALERTED + " has oldest-unread ")
          .contains(" s > 1 s");
      assertThat(browser.waitFor("alerts-headline").getText()).contains("alert");
      assertThat(browser.gridCells()).contains("smoke-backlog, smoke-waiting");
      assertThat(browser.gridCells())
          .as("the Oldest unread column: the alerted address's wait, in seconds")
          .anyMatch(cell -> cell.matches("[1-9][0-9]* s"));
      browser.click("alert-rules-details");
      assertThat(browser.waitFor("alert-rules").getText())
          .contains("smoke-backlog: " + ALERTED + "* — backlog > 2");
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/alerts.png"));
    }

    assertThat(
            api(
                    new String[] {
                      "POST",
                      "/console/api/addresses/purge?address=" + ALERTED + "&confirm=" + ALERTED,
                      ""
                    },
                    USERNAME,
                    PASSWORD)
                .statusCode())
        .isEqualTo(200);
    String after = awaitAlerts(body -> !body.contains("\"address\":\"" + ALERTED + "\""));
    assertThat(after).as("the breach ended; it began once").contains("\"smoke-backlog\":1");
  }

  /** The admin API's alerts once {@code wanted} holds (the server reads them every 5 s). */
  private static String awaitAlerts(Predicate<String> wanted) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
    String body = "";
    while (System.nanoTime() < deadline) {
      body = api(new String[] {"GET", "/console/api/alerts", null}, VIEWER, VIEWER_PASSWORD).body();
      if (wanted.test(body)) {
        return body;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("the alerts never matched within 45 s: " + body);
  }

  static void theAddressViewChartsWhatWasPostedAndDeliveredPerSecond() throws Exception {
    String placed = "jdbc://orders@shop/placed";
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String rates = "";
    // Orders over more than one 5 s reading, until a reading saw some posted and delivered (an
    // interval with no order in it reads 0.0, which does not count).
    while (System.nanoTime() < deadline
        && !(POSTED_SOME.matcher(rates).find() && DELIVERED_SOME.matcher(rates).find())) {
      HttpResponse<String> order = placeOrder("/orders-app/api/orders?item=pen&quantity=1");
      assertThat(order.statusCode()).as(order.body()).isEqualTo(202);
      RATE_ORDERS.incrementAndGet();
      awaitProgress(jsonString(order.body(), "orderId"));
      Thread.sleep(1000);
      rates =
          api(
                  new String[] {"GET", "/console/api/addresses/rates?address=" + placed, null},
                  VIEWER,
                  VIEWER_PASSWORD)
              .body();
    }
    for (int more = 0; more < 6; more++) { // a few more readings, for the chart's screenshot
      HttpResponse<String> order = placeOrder("/orders-app/api/orders?item=pen&quantity=1");
      assertThat(order.statusCode()).as(order.body()).isEqualTo(202);
      RATE_ORDERS.incrementAndGet();
      awaitProgress(jsonString(order.body(), "orderId"));
      Thread.sleep(500);
    }
    assertThat(rates)
        .contains("\"address\":\"" + placed + "\"")
        .contains("\"windowSeconds\":600")
        .containsPattern(POSTED_SOME)
        .containsPattern(DELIVERED_SOME);

    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("navigation");
      browser.open(url("/console/address?address=" + placed));
      assertThat(browser.waitFor("rates-now").getText()).startsWith("Now: posted");
      assertThat(browser.waitFor("rates-chart").getAttribute("src"))
          .startsWith("data:image/svg+xml");
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/address-rates.png"));
    }
  }

  static void theRelaysMetricsCountWhatItPublished() throws Exception {
    HttpResponse<String> placed = placeOrder("/orders-app/api/orders?item=metered");
    awaitProgress(jsonString(placed.body(), "orderId"));
    get("/health/ready"); // the outbox gauges are refreshed by the health check

    HttpResponse<String> metrics = get("/metrics?scope=application");

    assertThat(metrics.statusCode()).as(metrics.body()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("outbox_published_total")
        .contains("topic=\"orders.placed.v1\"")
        .contains("outbox_pending_rows");
  }

  static void everyAddressesTrafficIsCountedLiveWithoutAnyonePollingHealth() throws Exception {
    HttpResponse<String> placed = placeOrder("/orders-app/api/orders?item=counted");
    awaitProgress(jsonString(placed.body(), "orderId"));
    String placedOrders = "address=\"jdbc://orders@shop/placed\"";

    // No health poll here: the console reads the adapter every 5 s on its own.
    Instant deadline = Instant.now().plusSeconds(30);
    String application = "";
    while (Instant.now().isBefore(deadline)) {
      application = get("/metrics?scope=application").body();
      if (sample(application, "mailbox_acknowledged_total", placedOrders) >= 1) {
        break;
      }
      Thread.sleep(500);
    }
    assertThat(sample(application, "mailbox_posted_total", placedOrders))
        .as("MicroProfile Metrics:%n%s", application)
        .isGreaterThanOrEqualTo(1);
    assertThat(sample(application, "mailbox_acknowledged_total", placedOrders))
        .isGreaterThanOrEqualTo(1);
    assertThat(sample(application, "mailbox_unread", placedOrders)).isGreaterThanOrEqualTo(0);
    assertThat(application).contains("mailbox_provider_reachable");

    String[] scrape = {"GET", "/console/api/metrics", null};
    assertThat(api(scrape, null, null).statusCode()).as("anonymous").isEqualTo(401);
    HttpResponse<String> text = api(scrape, VIEWER, VIEWER_PASSWORD);
    assertThat(text.statusCode()).as(text.body()).isEqualTo(200);
    assertThat(text.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(sample(text.body(), "mailbox_posted_total", placedOrders))
        .as("Prometheus text:%n%s", text.body())
        .isGreaterThanOrEqualTo(1);
    assertThat(text.body()).contains("mailbox_provider_reachable{provider=\"jdbc\"} 1");
  }

  /**
   * The value of the first sample of {@code metric} whose tags include {@code tag}, or -1: the two
   * exports order their tags differently (MicroProfile Metrics adds its scope).
   */
  private static double sample(String exposition, String metric, String tag) {
    Matcher line =
        Pattern.compile(
                "^" + Pattern.quote(metric) + "\\{([^}]*)\\} ([0-9.eE+-]+)$", Pattern.MULTILINE)
            .matcher(exposition);
    while (line.find()) {
      if (line.group(1).contains(tag)) {
        return Double.parseDouble(line.group(2));
      }
    }
    return -1;
  }
}
