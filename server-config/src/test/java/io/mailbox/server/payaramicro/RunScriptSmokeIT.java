package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.server.browser.ConsoleBrowser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the README's start script the way a user does (detached, on its own port and data folder),
 * then checks over HTTP and in headless Chromium that the console, the example and the health check
 * answer. Stops the server it started, by its process id.
 */
class RunScriptSmokeIT {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  private static final Path DATA = Path.of(System.getProperty("mailbox.testData")).toAbsolutePath();
  private static final String USERNAME = "smoke-operator";
  private static final String PASSWORD = UUID.randomUUID().toString();
  private static final String VIEWER = "smoke-viewer";
  private static final String VIEWER_PASSWORD = UUID.randomUUID().toString();

  /**
   * The password of a broker URI pointed at a closed port. The adapter reads, checks and logs (as
   * {@code amqp://***@host:port}) the URI when it starts; the amqp: provider itself is not started,
   * since an unreachable broker marks the adapter not ready (measured: /health/ready 503).
   */
  private static final String AMQP_PASSWORD =
      "amqpSecret" + UUID.randomUUID().toString().replace("-", "");

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * The orders the tests place and commit with a fixed count (the rolled-back "ghost" is not one of
   * them; the order sent twice with one Idempotency-Key is one); the rates test adds as many as it
   * needs.
   */
  private static final int FIXED_ORDERS = 7;

  private static final java.util.concurrent.atomic.AtomicInteger RATE_ORDERS =
      new java.util.concurrent.atomic.AtomicInteger();

  /** A rate reading above zero (an interval without traffic reads 0.0). */
  private static final java.util.regex.Pattern POSTED_SOME =
      java.util.regex.Pattern.compile("\"postedPerSecond\":(0\\.[0-9]*[1-9]|[1-9])");

  private static final java.util.regex.Pattern DELIVERED_SOME =
      java.util.regex.Pattern.compile("\"deliveredPerSecond\":(0\\.[0-9]*[1-9]|[1-9])");

  private static int port;
  private static int amqpPort;
  private static final String ALERTED = "jdbc://smoke@console/alerts";
  private static long pid;
  private static String scriptOutput;

  @BeforeAll
  static void startTheProductWithTheRunScript() throws Exception {
    MicroStartScript.deleteRecursively(DATA);
    port = MicroStartScript.freePort();
    amqpPort = MicroStartScript.freePort(); // nothing listens there
    startServer();
  }

  /** Starts the server with the start script on {@link #DATA} and {@link #port}. */
  private static void startServer() throws Exception {
    MicroStartScript.Started started =
        MicroStartScript.start(
            REPOSITORY,
            port,
            DATA,
            java.util.Map.of(
                "MAILBOX_CONSOLE_USERNAME",
                USERNAME,
                "MAILBOX_CONSOLE_PASSWORD",
                PASSWORD,
                "MAILBOX_USERS",
                VIEWER + ":viewer",
                "MAILBOX_USER_SMOKE_VIEWER_PASSWORD",
                VIEWER_PASSWORD,
                "MAILBOX_AMQP_URI",
                amqpUri(),
                // An alert rule set as an operator sets one in a container: environment variables.
                "MAILBOX_ALERTS_RULES",
                "smoke-backlog,smoke-waiting",
                "MAILBOX_ALERTS_SMOKE_BACKLOG_ADDRESSES",
                ALERTED + "*",
                "MAILBOX_ALERTS_SMOKE_BACKLOG_BACKLOG",
                "2",
                "MAILBOX_ALERTS_SMOKE_WAITING_ADDRESSES",
                ALERTED,
                "MAILBOX_ALERTS_SMOKE_WAITING_OLDEST_UNREAD",
                "1"));
    pid = started.pid();
    scriptOutput = started.output();
  }

  /** Stops the server gracefully (SIGTERM), forcibly after a minute. */
  private static void stopServer() throws Exception {
    MicroStartScript.stop(pid, 60);
  }

  @AfterAll
  static void stopTheServerByItsPid() throws Exception {
    if (pid == 0) {
      return;
    }
    stopServer();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
        .as("server stopped")
        .isNotEqualTo(java.util.Optional.of(true));
    // First: it needs nothing but the log, and must run even if a row count below is off.
    assertNoConfiguredSecretIsInTheLog();
    assertCommittedRowsOutliveTheServer();
  }

  private static String amqpUri() {
    return "amqp://smoke:" + AMQP_PASSWORD + "@127.0.0.1:" + amqpPort + "/%2F";
  }

  /** Every secret this run configured: the accounts' passwords, the broker's. */
  private static java.util.List<String> configuredSecrets() throws IOException {
    java.util.List<String> secrets =
        new java.util.ArrayList<>(java.util.List.of(PASSWORD, VIEWER_PASSWORD, AMQP_PASSWORD));
    // Generated only when no console password is given; scanned for too should a run make one.
    Path generated = DATA.resolve("console-password");
    if (Files.exists(generated)) {
      secrets.add(Files.readString(generated).strip());
    }
    return secrets;
  }

  /**
   * Issue 20: after the whole run, shutdown included, none of the configured secrets is anywhere in
   * the server's log (the current file and the kept ones, payara-micro.log*), although the run
   * signed in, was refused sign-ins and read the broker URI.
   */
  private static void assertNoConfiguredSecretIsInTheLog() throws IOException {
    java.util.List<Path> logs;
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
        .contains("amqp://***@127.0.0.1:" + amqpPort);
    for (String secret : configuredSecrets()) {
      assertThat(all).as("a configured secret in " + logs).doesNotContain(secret);
    }
  }

  @Test
  void refusedAdminCallsNeverCarryAConfiguredSecretInTheirErrorBodies() throws Exception {
    String operator = basic(USERNAME, PASSWORD);
    java.util.List<HttpResponse<String>> refused = new java.util.ArrayList<>();
    refused.add(
        call(
            "POST",
            "/console/api/addresses/recover?address="
                + java.net.URLEncoder.encode(amqpUri(), StandardCharsets.UTF_8),
            null,
            null,
            "Authorization",
            operator));
    refused.add(
        call(
            "POST",
            "/console/api/outbox/release",
            "application/json",
            "{\"ids\": [\"" + PASSWORD + "\"], \"retry\": \"" + AMQP_PASSWORD + "\"}",
            "Authorization",
            operator));
    // In the query, not the path: a refusal's log line names the path it refused (as an access log
    // would), so a secret its caller puts into a URL path is logged; the query never is.
    refused.add(
        call(
            "GET",
            "/console/api/nothing?key=" + VIEWER_PASSWORD,
            null,
            null,
            "Authorization",
            operator));
    // Another account's password: one refused sign-in, forgotten by the successful call after it.
    refused.add(
        call("GET", "/console/api/audit", null, null, "Authorization", basic(VIEWER, PASSWORD)));
    assertThat(
            call("GET", "/console/api/audit", null, null, "Authorization", operator).statusCode())
        .isEqualTo(200);

    assertThat(refused).extracting(HttpResponse::statusCode).containsExactly(400, 400, 404, 401);
    for (HttpResponse<String> response : refused) {
      for (String secret : configuredSecrets()) {
        assertThat(response.body())
            .as(response.uri() + ": " + response.body())
            .doesNotContain(secret);
      }
    }
  }

  /**
   * What the server committed is on disk in the data folder once it is gone (a restart finds it),
   * read straight from the H2 file: the audited sign-ins and API changes; for the two committed
   * orders (the rolled-back one left nothing) both events sent through the outbox, the API's and
   * the outbox channel's; one inbox marker and one invoice per order.
   */
  private static void assertCommittedRowsOutliveTheServer() throws Exception {
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

  private static String url(String path) {
    return "http://localhost:" + port + path;
  }

  @Test
  void theScriptPrintsWhereTheConsoleIsAndHowToSignIn() {
    assertThat(scriptOutput)
        .contains("Console   " + url("/console/"))
        .contains("user '" + USERNAME + "'");
  }

  /**
   * Nothing listens beyond what the product needs: the server's only listening socket is its HTTP
   * port (no H2 TCP server, no Hazelcast member), and the data folder is its owner's only.
   */
  @Test
  void theServerListensOnItsHttpPortOnlyAndKeepsItsDataPrivate() throws Exception {
    Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
    String sockets = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(ss.waitFor()).isZero();
    java.util.List<String> ours =
        sockets.lines().filter(line -> line.contains("pid=" + pid + ",")).toList();
    assertThat(ours)
        .as("listening sockets of the server (pid %d):%n%s", pid, sockets)
        .hasSize(1)
        .allMatch(line -> line.matches("\\S+\\s+\\d+\\s+\\d+\\s+\\S*:" + port + "\\s.*"));

    try (var files = Files.walk(DATA)) {
      for (Path file : files.toList()) {
        var permissions = Files.getPosixFilePermissions(file);
        assertThat(permissions)
            .as("permissions of %s", file)
            .doesNotContain(
                java.nio.file.attribute.PosixFilePermission.GROUP_READ,
                java.nio.file.attribute.PosixFilePermission.OTHERS_READ,
                java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE);
      }
    }
  }

  @Test
  void theConsoleAnswersWithTheSignInPage() throws Exception {
    HttpResponse<String> page = get("/console/");
    assertThat(page.statusCode()).isEqualTo(200);

    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      browser.waitFor("sign-in");
      assertThat(browser.title()).isEqualTo("Sign in · Mailbox");
    }
  }

  @Test
  void aWrongPasswordIsRefusedAndTheDashboardStaysClosed() throws Exception {
    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      browser.signIn(USERNAME, "not-" + PASSWORD);

      assertThat(browser.waitFor("login-error").getText()).isEqualTo("Wrong username or password.");
      assertThat(browser.title()).isEqualTo("Sign in · Mailbox");
    }
  }

  @Test
  void aSignedInOperatorSeesTheExamplesAddressAfterItPosted() throws Exception {
    HttpResponse<String> placed = placeOrder("/orders-app/api/orders?item=book&quantity=2");
    assertThat(placed.statusCode()).as(placed.body()).isEqualTo(202);
    String orderId = jsonString(placed.body(), "orderId");
    awaitProgress(orderId);

    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("addresses");
      browser.waitForGridCell("jdbc://orders@shop/placed");
      browser.waitForGridCell("jdbc://billing@shop/invoices");
      browser.waitForGridCell("jdbc://shipping@shop/orders");

      assertThat(browser.title()).isEqualTo("Dashboard · Mailbox");
      assertThat(browser.waitFor("signed-in-user").getText())
          .isEqualTo("Signed in as " + USERNAME + " (operator)");
      assertThat(browser.waitFor("summary").getText()).contains("online");
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/dashboard.png"));
    }
  }

  @Test
  void anOperatorSeesTheOutboxParkedAndAuditViewsWithTheirControls() throws Exception {
    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("navigation");
      assertThat(browser.waitFor("signed-in-user").getText()).contains("(operator)");

      browser.open(url("/console/outbox"));
      assertThat(browser.waitFor("outbox-summary").getText()).contains("pending");
      assertThat(browser.has("release-retry")).isTrue();
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/outbox.png"));

      browser.open(url("/console/parked"));
      browser.waitFor("parked-address");
      assertThat(browser.has("purge-all")).isTrue();
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/parked.png"));

      browser.open(url("/console/audit"));
      browser.waitFor("audit-entries");
      browser.waitForGridCell("console.sign-in");
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/audit.png"));

      browser.open(url("/console/address?address=jdbc://billing@shop/invoices"));
      assertThat(browser.waitFor("address-numbers").getText()).contains("unread");
      assertThat(browser.has("recover")).isTrue();
      assertThat(browser.has("purge")).isTrue();
      assertThat(browser.has("send-test")).isTrue();
    }
  }

  @Test
  void anOperatorSendsATestMessageFromTheAddressViewAndItIsQueuedAndAudited() throws Exception {
    String address = "jdbc://smoke@console/test-message";
    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("navigation");
      browser.open(url("/console/address?address=" + address));
      browser.click("send-test");
      browser.waitFor("test-message-body");
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/test-message.png"));
      browser.click("send-test-confirm");
      new org.openqa.selenium.support.ui.WebDriverWait(
              browser.driver(), java.time.Duration.ofSeconds(20))
          .until(d -> browser.waitFor("address-numbers").getText().contains("1 unread"));
    }
    String queued =
        api(
                new String[] {"GET", "/console/api/addresses/messages?address=" + address, null},
                VIEWER,
                VIEWER_PASSWORD)
            .body();
    assertThat(queued).contains("mailbox-test-message-by").contains(USERNAME);
    assertThat(
            api(new String[] {"GET", "/console/api/audit?limit=20", null}, VIEWER, VIEWER_PASSWORD)
                .body())
        .contains("\"action\":\"address.send-test\"")
        .contains(address);
  }

  @Test
  void aBacklogOverItsAlertRuleShowsOnTheDashboardInReadinessAndInTheMetricsUntilPurged()
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
      new org.openqa.selenium.support.ui.WebDriverWait(
              browser.driver(), java.time.Duration.ofSeconds(20))
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
  private static String awaitAlerts(java.util.function.Predicate<String> wanted) throws Exception {
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

  @Test
  void anOperatorOpensAQueuedMessageInFullMovesItAndDeletesAnother() throws Exception {
    String from = "jdbc://smoke@console/detail";
    String to = "jdbc://smoke@console/held";
    String order = "{\"order\":\"o-42\",\"items\":[{\"sku\":\"book\",\"quantity\":2}]}";
    for (String body : List.of(order, "plain text, not JSON")) {
      String request =
          "{\"address\":\"" + from + "\",\"body\":" + jakarta.json.Json.createValue(body) + "}";
      assertThat(
              api(
                      new String[] {"POST", "/console/api/addresses/test-message", request},
                      USERNAME,
                      PASSWORD)
                  .statusCode())
          .isEqualTo(200);
    }
    jakarta.json.JsonArray listed =
        jakarta.json.Json.createReader(
                new java.io.StringReader(
                    api(
                            new String[] {
                              "GET", "/console/api/addresses/messages?address=" + from, null
                            },
                            VIEWER,
                            VIEWER_PASSWORD)
                        .body()))
            .readObject()
            .getJsonArray("messages");
    assertThat(listed).hasSize(2);
    jakarta.json.JsonObject json = listed.getJsonObject(0);
    jakarta.json.JsonObject text = listed.getJsonObject(1);
    assertThat(json.getString("bodyPreview")).isEqualTo(order);
    String full =
        api(
                new String[] {
                  "GET",
                  "/console/api/addresses/message?address="
                      + from
                      + "&key="
                      + json.getString("key"),
                  null
                },
                VIEWER,
                VIEWER_PASSWORD)
            .body();
    assertThat(full)
        .contains("\"found\":true")
        .contains("\"body\":" + jakarta.json.Json.createValue(order))
        .contains("mailbox-test-message-by");

    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("navigation");
      browser.open(url("/console/address?address=" + from));
      browser.waitFor("queued-messages");
      browser.clickGridCell(json.getString("id"));
      assertThat(browser.waitFor("message-body").getText())
          .as("the JSON body indented")
          .contains("\"order\": \"o-42\"")
          .contains("\n");
      assertThat(browser.waitFor("message-headers").getText()).contains("mailbox-test-message-by");
      assertThat(browser.has("copy-body")).isTrue();
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/message.png"));
      browser.click("move-message");
      browser.type("move-target", to);
      browser.click("move-confirm");
      new org.openqa.selenium.support.ui.WebDriverWait(
              browser.driver(), java.time.Duration.ofSeconds(20))
          .until(d -> browser.waitFor("address-numbers").getText().contains("1 unread"));
    }
    String moved =
        api(
                new String[] {"GET", "/console/api/addresses/messages?address=" + to, null},
                VIEWER,
                VIEWER_PASSWORD)
            .body();
    assertThat(moved)
        .as("the copy at the target, marked with where it came from and by whom")
        .contains("\"id\":\"" + json.getString("id") + "\"")
        .contains("\"mailbox-moved-from\":\"" + from + "\"")
        .contains("\"mailbox-moved-by\":\"" + USERNAME + "\"");
    HttpResponse<String> deleted =
        api(
            new String[] {
              "DELETE",
              "/console/api/addresses/messages?address=" + from + "&key=" + text.getString("key"),
              null
            },
            USERNAME,
            PASSWORD);
    assertThat(deleted.body()).isEqualTo("{\"removed\":1}");
    assertThat(
            api(
                    new String[] {"GET", "/console/api/addresses?address=" + from, null},
                    VIEWER,
                    VIEWER_PASSWORD)
                .body())
        .contains("\"unread\":0");
    assertThat(
            api(new String[] {"GET", "/console/api/audit?limit=20", null}, VIEWER, VIEWER_PASSWORD)
                .body())
        .contains("\"action\":\"message.move\"")
        .contains("\"action\":\"message.delete\"");
  }

  @Test
  void theAddressViewChartsWhatWasPostedAndDeliveredPerSecond() throws Exception {
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

  @Test
  void anOrderIsFollowedFromItsOutboxRowThroughADeadLetterToItsReplayAndInboxMarker()
      throws Exception {
    post("/orders-app/api/courier?down=true");
    String orderId;
    try {
      HttpResponse<String> placed = placeOrder("/orders-app/api/orders?item=journey");
      assertThat(placed.statusCode()).as(placed.body()).isEqualTo(202);
      RATE_ORDERS.incrementAndGet();
      orderId = jsonString(placed.body(), "orderId");
      String deadLetters = "jdbc://shipping@shop/orders_dlq";
      // The relay marks its rows sent after the publish, so the consumer can dead-letter the
      // request before its row reads "sent": wait for both.
      String before =
          awaitJourney(
              orderId,
              body ->
                  body.contains("\"hop\":\"dead-letter\"")
                      && !body.contains("\"state\":\"pending\""));
      assertThat(before)
          .contains("\"where\":\"orders.placed.v1 → ")
          .contains("\"state\":\"sent\"")
          .contains("\"where\":\"" + deadLetters + "\"")
          .contains("\"actions\":[\"replay\",\"open\"]")
          .contains("fatal at jdbc://shipping@shop/orders");
      String key = jsonString(before.substring(before.indexOf("\"hop\":\"dead-letter\"")), "key");
      post("/orders-app/api/courier?down=false");

      try (ConsoleBrowser browser = new ConsoleBrowser()) {
        browser.open(url("/console/"));
        signInAsOperator(browser);
        browser.waitFor("navigation");
        browser.open(url("/console/journey?q=" + orderId));
        browser.waitForGridCell("dead-letter");
        browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/journey.png"));
        browser.click("journey-replay-" + key);
        Instant shipped = Instant.now().plusSeconds(30);
        while (!shippedOrders().contains("\"" + orderId + "\"")) {
          assertThat(Instant.now()).as("the replayed request reached shipping").isBefore(shipped);
          Thread.sleep(200);
        }
      }
    } finally {
      post("/orders-app/api/courier?down=false");
    }
    String after =
        awaitJourney(
            orderId,
            body ->
                body.contains("\"hop\":\"inbox\"") && !body.contains("\"hop\":\"dead-letter\""));
    assertThat(after)
        .as("the shipping consumer's inbox marker, processed")
        .containsPattern("\"hop\":\"inbox\",\"where\":\"shipping[^\"]*\",\"state\":\"processed\"");
    assertThat(
            api(new String[] {"GET", "/console/api/journey?q=", null}, VIEWER, VIEWER_PASSWORD)
                .statusCode())
        .isEqualTo(400);
    assertThat(
            api(new String[] {"GET", "/console/api/audit?limit=50", null}, VIEWER, VIEWER_PASSWORD)
                .body())
        .contains("\"action\":\"deadletter.replay\"");
  }

  /** The journey of {@code term} once {@code wanted} holds (the relay and consumers are async). */
  private static String awaitJourney(String term, java.util.function.Predicate<String> wanted)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
    String body = "";
    while (System.nanoTime() < deadline) {
      body =
          api(new String[] {"GET", "/console/api/journey?q=" + term, null}, VIEWER, VIEWER_PASSWORD)
              .body();
      if (wanted.test(body)) {
        return body;
      }
      Thread.sleep(500);
    }
    throw new AssertionError(
        "the journey never matched within 45 s: "
            + body
            + "\nsnapshot: "
            + api(new String[] {"GET", "/console/api/snapshot", null}, VIEWER, VIEWER_PASSWORD)
                .body());
  }

  /**
   * Two shipping requests die while the courier is down: one is replayed from its message panel in
   * the address view, the other from the dead-letter view; both are shipped.
   */
  @Test
  void shippingRequestsThatDiedWhileTheCourierWasDownAreReplayedFromTheConsoleAndShipped()
      throws Exception {
    post("/orders-app/api/courier?down=true");
    String orderId = jsonString(post("/orders-app/api/orders?item=hazmat").body(), "orderId");
    String panelOrderId = jsonString(post("/orders-app/api/orders?item=fuel").body(), "orderId");
    String deadLetters = "jdbc://shipping@shop/orders_dlq";
    String[] records = {"GET", "/console/api/deadletters/records?address=" + deadLetters, null};
    Instant deadline = Instant.now().plusSeconds(30);
    while (!(api(records, VIEWER, VIEWER_PASSWORD).body().contains(orderId)
        && api(records, VIEWER, VIEWER_PASSWORD).body().contains(panelOrderId))) {
      assertThat(Instant.now()).as("the shipping requests were dead-lettered").isBefore(deadline);
      Thread.sleep(200);
    }
    assertThat(api(records, VIEWER, VIEWER_PASSWORD).body())
        .contains("\"reason\":\"fatal\"")
        .contains("no courier available");
    String panelRecordId =
        jakarta.json.Json.createReader(
                new java.io.StringReader(api(records, VIEWER, VIEWER_PASSWORD).body()))
            .readObject()
            .getJsonArray("records")
            .getValuesAs(jakarta.json.JsonObject.class)
            .stream()
            .filter(record -> record.toString().contains(panelOrderId))
            .findFirst()
            .orElseThrow()
            .getString("id");
    post("/orders-app/api/courier?down=false");

    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("navigation");
      browser.waitForGridCell("jdbc://shipping@shop/orders_dlq");
      browser.screenshot(
          REPOSITORY.resolve("server-config/target/screenshots/dashboard-dead-letter.png"));
      browser.open(url("/console/address?address=" + deadLetters));
      assertThat(browser.waitFor("address-numbers").getText()).contains("2 unread");
      browser.waitFor("queued-messages");
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/address.png"));
      browser.clickGridCell(panelRecordId);
      browser.waitFor("replay-message");
      browser.screenshot(
          REPOSITORY.resolve("server-config/target/screenshots/dead-letter-message.png"));
      browser.click("replay-message");
      browser.click("replay-confirm");
      new org.openqa.selenium.support.ui.WebDriverWait(
              browser.driver(), java.time.Duration.ofSeconds(20))
          .until(d -> browser.waitFor("address-numbers").getText().contains("1 unread"));

      browser.open(url("/console/dead-letters?address=" + deadLetters));
      new org.openqa.selenium.support.ui.WebDriverWait(
              browser.driver(), java.time.Duration.ofSeconds(20))
          .until(d -> browser.waitFor("dead-letter-count").getText().matches("[1-9]\\d* of .*"));
      browser.screenshot(REPOSITORY.resolve("server-config/target/screenshots/dead-letters.png"));
      browser.click("replay-matching");
      browser.click("replay-confirm");

      Instant shipped = Instant.now().plusSeconds(30);
      while (!(shippedOrders().contains("\"" + orderId + "\"")
          && shippedOrders().contains("\"" + panelOrderId + "\""))) {
        assertThat(Instant.now()).as("the replayed requests reached shipping").isBefore(shipped);
        Thread.sleep(200);
      }
    }
    assertThat(api(records, VIEWER, VIEWER_PASSWORD).body())
        .doesNotContain(orderId)
        .doesNotContain(panelOrderId);
    assertThat(
            api(new String[] {"GET", "/console/api/audit?limit=100", null}, VIEWER, VIEWER_PASSWORD)
                .body())
        .contains("\"action\":\"deadletter.replay\"")
        .contains("\"action\":\"address.send-test\"");
  }

  /**
   * The state an outage leaves behind, written straight into the server's database while it is
   * stopped (nothing but the server may open it while it runs: no TCP listener): an outbox row the
   * relay gave up on and a record parked at the end of a dead-letter chain. Then, after a restart,
   * an operator fixes both from the console.
   */
  @Test
  void anOperatorReleasesAFailedOutboxRowAndPurgesAParkedRecordFromTheConsole() throws Exception {
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
            java.util.HexFormat.of()
                .formatHex(
                    java.security.MessageDigest.getInstance("SHA-256")
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

  /** Browser sign-ins of the operator so far: each one must be in the audit exactly once. */
  private static final java.util.concurrent.atomic.AtomicInteger OPERATOR_SIGN_INS =
      new java.util.concurrent.atomic.AtomicInteger();

  private static void signInAsOperator(ConsoleBrowser browser) {
    browser.signIn(USERNAME, PASSWORD);
    OPERATOR_SIGN_INS.incrementAndGet();
  }

  /** The "shipped" array of the example's progress, as JSON text. */
  private static String shippedOrders() throws Exception {
    String body = get("/orders-app/api/orders/progress").body();
    int start = body.indexOf("\"shipped\":[");
    return start < 0 ? "" : body.substring(start, body.indexOf(']', start) + 1);
  }

  private static HttpResponse<String> post(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url(path)))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aViewerSeesEveryViewButNoControlThatChangesAnything() throws Exception {
    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      browser.signIn(VIEWER, VIEWER_PASSWORD);
      assertThat(browser.waitFor("signed-in-user").getText()).contains("viewer, read only");

      browser.open(url("/console/outbox"));
      browser.waitFor("outbox-summary");
      assertThat(browser.has("release-retry")).isFalse();
      assertThat(browser.has("release-discard")).isFalse();

      browser.open(url("/console/parked"));
      browser.waitFor("parked-address");
      assertThat(browser.has("purge-selected")).isFalse();
      assertThat(browser.has("purge-all")).isFalse();

      browser.open(url("/console/audit"));
      browser.waitFor("audit-entries");

      browser.open(url("/console/address?address=jdbc://billing@shop/invoices"));
      browser.waitFor("address-numbers");
      assertThat(browser.has("recover")).isFalse();
      assertThat(browser.has("purge")).isFalse();
      assertThat(browser.has("send-test")).isFalse();

      browser.open(url("/console/dead-letters"));
      browser.waitFor("dead-letter-address");
      assertThat(browser.has("replay-selected")).isFalse();
      assertThat(browser.has("replay-matching")).isFalse();
    }
  }

  @Test
  void theAdaptersAndTheOutboxsReadinessChecksAreUpAndRegisteredOncePerServer() throws Exception {
    HttpResponse<String> health = get("/health/ready");

    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    assertThat(health.body()).contains("\"provider.jdbc\":\"up\"").contains("\"UP\"");
    // Two wars bundle the services module (the console and the example): one copy of each check.
    assertThat(occurrences(health.body(), "\"name\":\"mailbox-adapter\"")).isEqualTo(1);
    assertThat(occurrences(health.body(), "\"name\":\"mailbox-outbox\"")).isEqualTo(1);
    HttpResponse<String> live = get("/health/live");
    assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
    assertThat(occurrences(live.body(), "\"name\":\"mailbox-adapter-live\"")).isEqualTo(1);
  }

  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }

  @Test
  void aRolledBackOrderLeavesNothingBehindNeitherRowNorEventNorLetter() throws Exception {
    HttpResponse<String> refused = placeOrder("/orders-app/api/orders?item=ghost&fail=true");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    String ghost = jsonString(refused.body(), "orderId");

    // A committed order placed afterwards gets through; the rolled-back one never does.
    HttpResponse<String> placed = placeOrder("/orders-app/api/orders?item=real");
    awaitProgress(jsonString(placed.body(), "orderId"));
    Thread.sleep(500);
    assertThat(get("/orders-app/api/orders/progress").body()).doesNotContain(ghost);
  }

  @Test
  void theRelaysMetricsCountWhatItPublished() throws Exception {
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

  @Test
  void everyAddressesTrafficIsCountedLiveWithoutAnyonePollingHealth() throws Exception {
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

  // ---- the admin API ----------------------------------------------------------------------------

  private static final String INBOX = "jdbc:shipping@shop/orders";
  private static final String SCRATCH = "jdbc:smoke@console/scratch";

  /** Every endpoint: method, path, body (null for none), and whether it changes anything. */
  private static final java.util.List<String[]> ENDPOINTS =
      java.util.List.of(
          new String[] {"GET", "/console/api/snapshot", null},
          new String[] {"GET", "/console/api/addresses?address=" + INBOX, null},
          new String[] {"GET", "/console/api/outbox", null},
          new String[] {"GET", "/console/api/outbox/rows?status=failed", null},
          new String[] {"GET", "/console/api/audit?limit=5", null},
          new String[] {"GET", "/console/api/parked?address=" + INBOX, null},
          new String[] {"GET", "/console/api/addresses/messages?address=" + INBOX, null},
          new String[] {"GET", "/console/api/addresses/leases?address=" + INBOX, null},
          new String[] {"GET", "/console/api/deadletters", null},
          new String[] {"GET", "/console/api/alerts?limit=5", null},
          new String[] {"GET", "/console/api/journey?q=no-such-message", null},
          new String[] {"GET", "/console/api/addresses/rates?address=" + INBOX, null},
          new String[] {
            "GET", "/console/api/addresses/message?address=" + SCRATCH + "&key=none", null
          },
          new String[] {
            "POST",
            "/console/api/addresses/messages/move",
            "{\"address\":\""
                + SCRATCH
                + "\",\"key\":\"none\",\"target\":\"jdbc:smoke@console/else\"}"
          },
          new String[] {
            "DELETE", "/console/api/addresses/messages?address=" + SCRATCH + "&key=none", null
          },
          new String[] {"GET", "/console/api/inbox/parked", null},
          new String[] {
            "POST", "/console/api/inbox/release", "{\"ids\":[\"none\"],\"retry\":false}"
          },
          new String[] {"GET", "/console/api/deadletters/records?address=" + INBOX + "_dlq", null},
          new String[] {
            "POST", "/console/api/addresses/purge?address=" + SCRATCH + "&confirm=" + SCRATCH, ""
          },
          new String[] {
            "POST",
            "/console/api/deadletters/replay",
            "{\"address\":\"" + INBOX + "_dlq\",\"keys\":[\"none\"]}"
          },
          new String[] {"POST", "/console/api/addresses/recover?address=" + INBOX, ""},
          new String[] {
            "POST",
            "/console/api/addresses/test-message",
            "{\"address\":\"" + SCRATCH + "\",\"body\":\"{\\\"smoke\\\":true}\"}"
          },
          new String[] {
            "POST", "/console/api/outbox/release", "{\"ids\":[\"none\"],\"retry\":true}"
          },
          new String[] {"DELETE", "/console/api/parked?address=" + INBOX + "&key=none", null});

  private static HttpResponse<String> api(String[] endpoint, String user, String password)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url(endpoint[1]))).timeout(Duration.ofSeconds(20));
    if (user != null) {
      String basic =
          java.util.Base64.getEncoder()
              .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
      request.header("Authorization", "Basic " + basic);
    }
    if (endpoint[2] != null) {
      request.header("Content-Type", "application/json");
    }
    request.method(
        endpoint[0],
        endpoint[2] == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(endpoint[2]));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theAdminApiAnswersEveryEndpointByRole() throws Exception {
    for (String[] endpoint : ENDPOINTS) {
      String what = endpoint[0] + " " + endpoint[1];
      boolean changes = !endpoint[0].equals("GET");
      assertThat(api(endpoint, null, null).statusCode()).as("anonymous " + what).isEqualTo(401);
      assertThat(api(endpoint, VIEWER, "wrong").statusCode())
          .as("bad password " + what)
          .isEqualTo(401);
      assertThat(api(endpoint, VIEWER, VIEWER_PASSWORD).statusCode())
          .as("viewer " + what)
          .isEqualTo(changes ? 403 : 200);
      HttpResponse<String> operator = api(endpoint, USERNAME, PASSWORD);
      assertThat(operator.statusCode())
          .as("operator " + what + ": " + operator.body())
          .isEqualTo(200);
      assertThat(operator.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/json");
    }
  }

  @Test
  void everyChangeThroughTheApiIsAuditedWithWhoDidIt() throws Exception {
    for (String[] endpoint : ENDPOINTS) {
      if (!endpoint[0].equals("GET")) {
        assertThat(api(endpoint, USERNAME, PASSWORD).statusCode()).isEqualTo(200);
      }
    }

    String audit =
        api(new String[] {"GET", "/console/api/audit?limit=50", null}, VIEWER, VIEWER_PASSWORD)
            .body();
    assertThat(audit)
        .contains("\"action\":\"address.recover\"")
        .contains("\"action\":\"outbox.release-retry\"")
        .contains("\"action\":\"parked.purge\"")
        .contains("\"action\":\"address.purge\"")
        .contains("\"action\":\"deadletter.replay\"")
        .contains("\"action\":\"address.send-test\"")
        .contains("\"actor\":\"" + USERNAME + "\"");
  }

  @Test
  void badApiInputIsRefusedWithAStableCode() throws Exception {
    HttpResponse<String> malformed =
        api(
            new String[] {"GET", "/console/api/addresses?address=nope", null},
            VIEWER,
            VIEWER_PASSWORD);
    HttpResponse<String> noIds =
        api(
            new String[] {"POST", "/console/api/outbox/release", "{\"retry\":true}"},
            USERNAME,
            PASSWORD);
    HttpResponse<String> badLimit =
        api(new String[] {"GET", "/console/api/audit?limit=0", null}, VIEWER, VIEWER_PASSWORD);
    HttpResponse<String> longTest =
        api(
            new String[] {
              "POST",
              "/console/api/addresses/test-message",
              "{\"address\":\"" + SCRATCH + "\",\"body\":\"" + "x".repeat(65_537) + "\"}"
            },
            USERNAME,
            PASSWORD);
    HttpResponse<String> noTestBody =
        api(
            new String[] {
              "POST", "/console/api/addresses/test-message", "{\"address\":\"" + SCRATCH + "\"}"
            },
            USERNAME,
            PASSWORD);

    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.body()).contains("\"code\":\"MBX-1001\"");
    assertThat(noIds.statusCode()).isEqualTo(400);
    assertThat(noIds.body()).contains("\"code\":\"MBX-4022\"");
    assertThat(badLimit.statusCode()).isEqualTo(400);
    assertThat(longTest.statusCode()).isEqualTo(400);
    assertThat(longTest.body()).contains("\"code\":\"MBX-4022\"").doesNotContain("xxxx");
    assertThat(noTestBody.statusCode()).isEqualTo(400);
    assertThat(noTestBody.body()).contains("\"code\":\"MBX-4022\"");
  }

  @Test
  void theServerPublishesTheApisOpenApiDocument() throws Exception {
    HttpResponse<String> openApi = get("/openapi");

    assertThat(openApi.statusCode()).isEqualTo(200);
    assertThat(openApi.body()).contains("/api/snapshot").contains("/api/outbox/release");
  }

  @Test
  void badOrderInputIsRefusedWithACode() throws Exception {
    HttpResponse<String> refused = placeOrder("/orders-app/api/orders?quantity=0");

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("ORD-400");
  }

  @Test
  void anOrderSentAgainWithItsIdempotencyKeyIsAnsweredNotPlacedTwice() throws Exception {
    String key = UUID.randomUUID().toString();
    HttpResponse<String> first = postWithKey("/orders-app/api/orders?item=twice", key);
    HttpResponse<String> again = postWithKey("/orders-app/api/orders?item=twice", key);

    assertThat(first.statusCode()).as(first.body()).isEqualTo(202);
    assertThat(jsonString(first.body(), "orderId")).isEqualTo(key);
    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    assertThat(again.body()).contains("\"replayed\":true").contains(key);
    assertThat(get("/orders-app/api/orders/" + key).statusCode()).isEqualTo(200);
    assertThat(get("/orders-app/api/orders/" + UUID.randomUUID()).statusCode()).isEqualTo(404);
    awaitProgress(key);
    Thread.sleep(500);
    String progress = get("/orders-app/api/orders/progress").body();
    assertThat(progress.split(key, -1))
        .as("invoiced once and shipped once: " + progress)
        .hasSize(3);

    String hostile = "<script>" + "x".repeat(40);
    HttpResponse<String> refused = postWithKey("/orders-app/api/orders?item=bad", hostile);
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body())
        .contains("ORD-400")
        .contains("Idempotency-Key")
        .doesNotContain("script");
  }

  private static HttpResponse<String> postWithKey(String path, String key) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url(path)))
            .header("Idempotency-Key", key)
            .timeout(Duration.ofSeconds(20))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** Waits until the order went through the channel pipeline (invoiced) and the MDB (shipped). */
  private static void awaitProgress(String orderId) throws Exception {
    Instant deadline = Instant.now().plusSeconds(20);
    String progress = "";
    while (Instant.now().isBefore(deadline)) {
      progress = get("/orders-app/api/orders/progress").body();
      if (progress.matches("(?s).*\"invoiced\":\\[[^\\]]*" + orderId + ".*")
          && progress.matches("(?s).*\"shipped\":\\[[^\\]]*" + orderId + ".*")) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "order " + orderId + " was not both invoiced and shipped; progress: " + progress);
  }

  /** POSTs an order to the example ({@code path} with its query). */
  private static HttpResponse<String> placeOrder(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url(path)))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String jsonString(String json, String field) {
    Matcher matcher = Pattern.compile("\"" + field + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
    assertThat(matcher.find()).as(field + " in " + json).isTrue();
    return matcher.group(1);
  }

  // ---- issue 20: refusals, cross-site requests, browser headers ------------------------------

  /** An admin API call with explicit headers (name, value, ...) and a body of its own type. */
  private static HttpResponse<String> call(
      String method, String path, String contentType, String body, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(20));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String user, String password) {
    return "Basic "
        + java.util.Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static void assertJsonRefusal(
      HttpResponse<String> response, int status, String code, String notEchoed) {
    String what = response.request().method() + " " + response.uri() + ": " + response.body();
    assertThat(response.statusCode()).as(what).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type").orElse(""))
        .as(what)
        .startsWith("application/json");
    assertThat(response.body()).as(what).contains("\"code\":\"" + code + "\"");
    if (notEchoed != null) {
      assertThat(response.body()).as(what).doesNotContain(notEchoed);
    }
  }

  @Test
  void everyRefusalOfTheAdminApiIsJsonWithAStableCodeAndNoEchoOfTheRefusedValue() throws Exception {
    String operator = basic(USERNAME, PASSWORD);
    String viewer = basic(VIEWER, VIEWER_PASSWORD);
    String json = "application/json";
    String release = "/console/api/outbox/release";
    String replay = "/console/api/deadletters/replay";
    String dlq = INBOX + "_dlq";

    assertJsonRefusal(
        call("POST", release, json, "{\"ids\": [\"x\"", "Authorization", operator),
        400,
        "MBX-4000",
        null);
    assertJsonRefusal(
        call("POST", release, json, "[\"x\"]", "Authorization", operator), 400, "MBX-4000", null);
    assertJsonRefusal(
        call(
            "POST",
            release,
            json,
            "{\"ids\":[\"x\"],\"retry\":\"sure\"}",
            "Authorization",
            operator),
        400,
        "MBX-4022",
        "sure");
    assertJsonRefusal(
        call("GET", "/console/api/audit?limit=lots", null, null, "Authorization", viewer),
        400,
        "MBX-4022",
        "lots");
    assertJsonRefusal(
        call("GET", "/console/api/audit?limit=99999999999", null, null, "Authorization", viewer),
        400,
        "MBX-4022",
        "99999999999");
    for (String perSecond : new String[] {"\"fast\"", "4294967346", "0"}) {
      assertJsonRefusal(
          call(
              "POST",
              replay,
              json,
              "{\"address\":\"" + dlq + "\",\"keys\":[\"none\"],\"perSecond\":" + perSecond + "}",
              "Authorization",
              operator),
          400,
          "MBX-4022",
          perSecond.equals("0") ? null : perSecond.replace("\"", ""));
    }
    HttpResponse<String> anonymous = call("GET", "/console/api/snapshot", null, null);
    assertJsonRefusal(anonymous, 401, "MBX-4001", null);
    assertThat(anonymous.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Basic");
    assertJsonRefusal(
        call(
            "POST",
            "/console/api/addresses/recover?address=" + INBOX,
            null,
            "",
            "Authorization",
            viewer),
        403,
        "MBX-4003",
        null);
    assertJsonRefusal(
        call("PUT", "/console/api/snapshot", json, "{}", "Authorization", operator),
        405,
        "MBX-4005",
        null);
    assertJsonRefusal(
        call("POST", release, "text/plain", "ids=x", "Authorization", operator),
        415,
        "MBX-4015",
        null);
    assertJsonRefusal(
        call("GET", "/console/api/no-such-thing", null, null, "Authorization", viewer),
        404,
        "MBX-4004",
        null);
  }

  @Test
  void aSignedInConsoleSessionCookieAloneCannotChangeAnythingThroughTheAdminApi() throws Exception {
    org.openqa.selenium.Cookie session;
    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      signInAsOperator(browser);
      browser.waitFor("navigation");
      session = browser.driver().manage().getCookieNamed("JSESSIONID");
    }
    assertThat(session).as("the console's session cookie").isNotNull();
    assertThat(session.isHttpOnly()).isTrue();
    assertThat(session.getSameSite()).isEqualTo("Strict");

    String purge = "/console/api/addresses/purge?address=" + SCRATCH + "&confirm=" + SCRATCH;
    HttpResponse<String> forged =
        call(
            "POST",
            purge,
            null,
            "",
            "Cookie",
            "JSESSIONID=" + session.getValue(),
            "Origin",
            "http://evil.example");
    assertJsonRefusal(forged, 401, "MBX-4001", null);
    HttpResponse<String> read =
        call(
            "GET",
            "/console/api/snapshot",
            null,
            null,
            "Cookie",
            "JSESSIONID=" + session.getValue());
    assertJsonRefusal(read, 401, "MBX-4001", null);
  }

  @Test
  void everyResponseCarriesTheBrowserSecurityHeaders() throws Exception {
    for (HttpResponse<String> response :
        java.util.List.of(
            get("/console/"),
            call("GET", "/console/api/snapshot", null, null),
            call(
                "GET",
                "/console/api/snapshot",
                null,
                null,
                "Authorization",
                basic(VIEWER, VIEWER_PASSWORD)))) {
      String what = response.uri() + " " + response.statusCode();
      assertThat(response.headers().firstValue("X-Content-Type-Options"))
          .as(what)
          .contains("nosniff");
      assertThat(response.headers().firstValue("Referrer-Policy")).as(what).contains("no-referrer");
      assertThat(response.headers().firstValue("X-Frame-Options")).as(what).contains("DENY");
      assertThat(response.headers().firstValue("Content-Security-Policy").orElse(""))
          .as(what)
          .contains("frame-ancestors 'none'");
    }
  }

  @Test
  void purgingEveryParkedRecordOfAnAddressNeedsTheAddressRepeated() throws Exception {
    String operator = basic(USERNAME, PASSWORD);
    String all = "/console/api/parked?address=" + SCRATCH;

    assertJsonRefusal(
        call("DELETE", all, null, null, "Authorization", operator), 400, "MBX-4022", null);
    HttpResponse<String> confirmed =
        call("DELETE", all + "&confirm=" + SCRATCH, null, null, "Authorization", operator);
    assertThat(confirmed.statusCode()).as(confirmed.body()).isEqualTo(200);
  }

  @Test
  void releasingTwentyOutboxRowsAnswersAndIsAuditedHoweverLongItsTarget() throws Exception {
    String ids =
        String.join(
            ",",
            java.util.stream.Stream.generate(() -> "\"" + UUID.randomUUID() + "\"")
                .limit(20)
                .toList());
    HttpResponse<String> released =
        call(
            "POST",
            "/console/api/outbox/release",
            "application/json",
            "{\"ids\":[" + ids + "],\"retry\":false}",
            "Authorization",
            basic(USERNAME, PASSWORD));

    assertThat(released.statusCode()).as(released.body()).isEqualTo(200);
    assertThat(released.body()).contains("\"requested\":20");
    assertThat(
            call(
                    "GET",
                    "/console/api/audit?limit=20",
                    null,
                    null,
                    "Authorization",
                    basic(VIEWER, VIEWER_PASSWORD))
                .body())
        .contains("\"action\":\"outbox.release-discard\"")
        .contains(" chars]");
  }

  @Test
  void aBodyOverTheLimitIsRefusedWith413() throws Exception {
    // Over a plain socket: the server answers from the declared length at once, before the body
    // (and closes the connection); java.net.http would block sending the rest and time out.
    String answer;
    try (java.net.Socket socket = new java.net.Socket("localhost", port)) {
      socket.setSoTimeout(20_000);
      socket
          .getOutputStream()
          .write(
              ("POST /console/api/outbox/release HTTP/1.1\r\nHost: localhost\r\nAuthorization: "
                      + basic(USERNAME, PASSWORD)
                      + "\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n"
                      + "{\"ids\":[\"xxxx")
                  .getBytes(StandardCharsets.US_ASCII));
      StringBuilder read = new StringBuilder();
      var in = socket.getInputStream();
      for (int c = in.read(); c >= 0; c = in.read()) {
        read.append((char) c);
        if (read.indexOf("\r\n\r\n") > 0 && read.charAt(read.length() - 1) == '}') {
          break;
        }
      }
      answer = read.toString();
    }

    assertThat(answer)
        .startsWith("HTTP/1.1 413")
        .contains("Content-Type: application/json")
        .contains("\"code\":\"MBX-4013\"")
        .doesNotContain("xxxx");
  }

  @Test
  void repeatedWrongPasswordsAreThrottledAndEveryRefusalIsAudited() throws Exception {
    String guesser = "guesser-" + UUID.randomUUID().toString().substring(0, 8);
    HttpResponse<String> answer = null;
    int attempts = 0;
    // Stops at the first 429, long before the lockout (10), which would shut out 127.0.0.1.
    while (attempts < 8) {
      attempts++;
      answer =
          call(
              "GET",
              "/console/api/snapshot",
              null,
              null,
              "Authorization",
              basic(guesser, "guess-" + attempts));
      if (answer.statusCode() == 429) {
        break;
      }
      assertJsonRefusal(answer, 401, "MBX-4001", "guess-");
    }
    assertJsonRefusal(answer, 429, "MBX-4029", "guess-");
    long retryAfter = Long.parseLong(answer.headers().firstValue("Retry-After").orElseThrow());
    assertThat(retryAfter).isBetween(1L, 30L);
    Thread.sleep(retryAfter * 1000 + 500);

    // A successful sign-in from the address forgets its refusals.
    String audit =
        call(
                "GET",
                "/console/api/audit?limit=100",
                null,
                null,
                "Authorization",
                basic(VIEWER, VIEWER_PASSWORD))
            .body();
    assertThat(audit)
        .contains("\"actor\":\"" + guesser + "\",\"action\":\"api.sign-in\"")
        .doesNotContain("guess-1");
  }
}
