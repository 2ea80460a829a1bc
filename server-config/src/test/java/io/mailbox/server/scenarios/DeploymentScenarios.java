package io.mailbox.server.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.server.browser.ConsoleBrowser;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The black-box scenarios every deployment must pass: Payara Micro (rar + wars), Payara Server and
 * WildFly (the EAR). They speak HTTP only, to the example application and to the console's admin
 * API, and one drives the console in headless Chromium, so they run unchanged against each server;
 * a subclass only starts and stops its server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DeploymentScenarios {
  /** How long a message may take through relay, broker-less providers and consumers. */
  static final Duration DELIVERY = Duration.ofSeconds(60);

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * A running deployment: its name, where it answers (the operator account is {@link
   * ServerScript#OPERATOR}) and how it is stopped.
   */
  record Deployment(
      String server, URI base, URI health, boolean registersEarChecks, AutoCloseable stop) {
    /** MicroProfile Health on the HTTP port, as on Payara, with the EAR's wars' checks. */
    Deployment(String server, URI base, AutoCloseable stop) {
      this(server, base, base, true, stop);
    }

    /**
     * The same server with its health endpoints elsewhere and without the checks of an EAR's wars:
     * WildFly serves health on its management port and registers no check of an EAR's
     * subdeployments (WFLY-12835).
     */
    Deployment asWildFly(URI managementBase) {
      return new Deployment(server, base, managementBase, false, stop);
    }
  }

  private Deployment deployment;

  /** Starts the server with the application on a fresh data folder. */
  abstract Deployment start() throws Exception;

  @BeforeAll
  void startTheServer() throws Exception {
    deployment = start();
  }

  @AfterAll
  void stopTheServer() throws Exception {
    if (deployment != null) {
      deployment.stop().close();
    }
  }

  @Test
  @Order(1)
  void theConsoleSignInPageAnswersAndTheApiRequiresSignIn() throws Exception {
    HttpResponse<String> page = get("/console/", false);
    assertThat(page.statusCode()).as("console page").isEqualTo(200);
    assertThat(page.body()).containsIgnoringCase("<!doctype html").containsIgnoringCase("vaadin");

    assertThat(get("/console/api/snapshot", false).statusCode()).as("anonymous").isEqualTo(401);
    HttpRequest wrong =
        request("/console/api/snapshot")
            .header("Authorization", basic(ServerScript.OPERATOR, "not-the-password"))
            .build();
    assertThat(send(wrong).statusCode()).as("wrong password").isEqualTo(401);
  }

  @Test
  @Order(1)
  void readinessAndLivenessAnswerWithEachCheckOncePerServer() throws Exception {
    HttpResponse<String> ready =
        send(HttpRequest.newBuilder(deployment.health().resolve("/health/ready")).build());
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    HttpResponse<String> live =
        send(HttpRequest.newBuilder(deployment.health().resolve("/health/live")).build());
    assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
    // The console war registers the server's checks; the example bundles the same module.
    long expected = deployment.registersEarChecks() ? 1 : 0;
    assertThat(occurrences(ready.body(), "mailbox-adapter")).as(ready.body()).isEqualTo(expected);
    assertThat(occurrences(ready.body(), "mailbox-outbox")).isEqualTo(expected);
    assertThat(occurrences(live.body(), "mailbox-adapter-live"))
        .as(live.body())
        .isEqualTo(expected);
    if (deployment.registersEarChecks()) {
      assertThat(ready.body().replaceAll("\\s", ""))
          .as("the adapter's check names its providers' reachability")
          .contains("\"provider.jdbc\":\"up\"");
      assertThat(ready.body())
          .as("the datasource at an isolation where the relay and inserts cannot deadlock")
          .doesNotContain("isolation-locks-inserts");
    }
  }

  @Test
  @Order(2)
  void whereIsMyMessageFollowsAnOrderFromItsOutboxRowsToItsConsumersInboxMarkers()
      throws Exception {
    String order = placeOrder(false);
    awaitProgress("shipped", order, list -> occurrences(list, order) == 1);
    // Found by text in the order's events, then by their ids: rows sent, consumers' markers.
    awaitAdmin(
        "/console/api/journey?q=" + order,
        body ->
            body.contains("\"hop\":\"outbox\"")
                && body.contains("\"state\":\"sent\"")
                && body.contains("\"hop\":\"inbox\"")
                && body.contains("\"state\":\"processed\""));
  }

  @Test
  @Order(2)
  void aMessagePostedThroughChannelsIsConsumed() throws Exception {
    String order = placeOrder(false);
    // The relay publishes orders.placed.v1; @Incoming placed-orders turns it into an invoice
    // request on @Outgoing invoices; @Incoming invoices-in writes the invoice.
    awaitProgress("invoiced", order, list -> occurrences(list, order) == 1);
  }

  @Test
  @Order(2)
  void aRequestIsAnsweredByAChannelResponderAndItsFailureComesBackCoded() throws Exception {
    HttpResponse<String> book = get("/orders-app/api/stock?item=book", false);
    assertThat(book.statusCode()).as(book.body()).isEqualTo(200);
    assertThat(book.body()).contains("\"item\":\"book\"").contains("\"available\":12");

    HttpResponse<String> unknown = get("/orders-app/api/stock?item=ghost", false);
    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(422);
    assertThat(unknown.body())
        .contains("MBX-2011")
        .contains("java.lang.IllegalArgumentException: unknown item ghost");
  }

  @Test
  @Order(3)
  void theOutboxDeliversWhatCommittedAndNothingOfWhatRolledBack() throws Exception {
    String ghost = placeOrder(true);
    String committed = placeOrder(false);
    // The outbox channel (shipping-requests) and the relay bring the request to shipping's MDB.
    awaitProgress("shipped", committed, list -> list.contains(quoted(committed)));
    awaitProgress("invoiced", committed, list -> list.contains(quoted(committed)));
    String progress = get("/orders-app/api/orders/progress", false).body();
    assertThat(progress).as("the rolled-back order left no event").doesNotContain(ghost);
  }

  @Test
  @Order(4)
  void aRedeliveredMessageIsAppliedOnceByTheInbox() throws Exception {
    String order = placeOrder(false);
    awaitProgress("invoiced", order, list -> occurrences(list, order) == 1);

    // Three copies of one invoice request (one envelope id), as a redelivering transport sends.
    HttpResponse<String> posted =
        post("/orders-app/api/billing-requests?copies=3&orderId=" + encode(order), false);
    assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
    awaitProgress("invoiced", order, list -> occurrences(list, order) == 2);

    // A later request is applied after the copies were handled: still one invoice for them.
    String sentinel = placeOrder(false);
    awaitProgress("invoiced", sentinel, list -> list.contains(quoted(sentinel)));
    Thread.sleep(2_000);
    assertThat(occurrences(progress("invoiced"), order)).as("invoices of " + order).isEqualTo(2);
  }

  @Test
  @Order(5)
  void aFailingConsumerIsDeadLetteredThenReplayedAndAPoisonDeliveryIsParked() throws Exception {
    String order;
    assertThat(post("/orders-app/api/courier?down=true", false).statusCode()).isEqualTo(200);
    try {
      order = placeOrder(false);
      // Shipping's MDB throws: the request is given up to the dead-letter address, with the error.
      awaitAdmin(
          "/console/api/deadletters/records?address="
              + encode("jdbc:shipping@shop/orders_dlq")
              + "&q="
              + encode(order),
          body -> body.contains("no courier available for order " + order));
    } finally {
      post("/orders-app/api/courier?down=false", false);
    }
    String records =
        get(
                "/console/api/deadletters/records?address="
                    + encode("jdbc:shipping@shop/orders_dlq")
                    + "&q="
                    + encode(order),
                true)
            .body();
    String key = field(records, "key");
    HttpResponse<String> replay =
        send(
            request("/console/api/deadletters/replay")
                .header("Authorization", operator())
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"address\":\"jdbc:shipping@shop/orders_dlq\",\"keys\":[\""
                            + key
                            + "\"]}"))
                .build());
    assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
    assertThat(replay.body()).contains("\"replayed\":1");
    awaitProgress("shipped", order, list -> list.contains(quoted(order)));

    // A request the ledger rejects: its consumer inbox parks it, visible to operators.
    HttpResponse<String> poison = post("/orders-app/api/billing-requests?malformed=true", false);
    assertThat(poison.statusCode()).as(poison.body()).isEqualTo(202);
    String envelope = field(poison.body(), "envelopeId");
    awaitAdmin("/console/api/inbox/parked?limit=200", body -> body.contains(envelope));
  }

  @Test
  @Order(6)
  void theMetricsCountEachAddressesTrafficIncludingTheDeadLetter() throws Exception {
    // The console reads the adapter every 5 s on its own; the dead letter of test 5 is counted.
    String shipping = "address=\"jdbc://shipping@shop/orders\"";
    String placed = "address=\"jdbc://orders@shop/placed\"";
    awaitAdmin(
        "/console/api/metrics",
        text ->
            Pattern.compile(
                    "mailbox_dead_lettered_total\\{provider=\"jdbc\","
                        + Pattern.quote(shipping)
                        + "\\} [1-9]")
                .matcher(text)
                .find());
    String text = get("/console/api/metrics", true).body();
    assertThat(text)
        .as(text)
        .containsPattern("mailbox_posted_total\\{provider=\"jdbc\"," + placed + "\\} [1-9]")
        .containsPattern("mailbox_acknowledged_total\\{provider=\"jdbc\"," + placed + "\\} [1-9]")
        .contains("mailbox_unread{provider=\"jdbc\"," + placed + "}")
        .contains("mailbox_provider_reachable{provider=\"jdbc\"} 1")
        .as("the outbox tables' gauges, on every server")
        .containsPattern("mailbox_outbox_pending_rows [0-9]")
        .containsPattern("mailbox_outbox_oldest_pending_seconds [0-9]");
    assertThat(get("/console/api/metrics", false).statusCode()).as("anonymous").isEqualTo(401);
  }

  @Test
  @Order(6)
  void theStatusSnapshotListsTheApplicationsAddresses() throws Exception {
    HttpResponse<String> snapshot = get("/console/api/snapshot", true);
    assertThat(snapshot.statusCode()).isEqualTo(200);
    assertThat(snapshot.body())
        .contains("\"state\":\"online\"")
        .contains("jdbc://orders@shop/placed")
        .contains("jdbc://billing@shop/invoices")
        .contains("jdbc://shipping@shop/orders");
    HttpResponse<String> outbox = get("/console/api/outbox", true);
    assertThat(outbox.statusCode()).as(outbox.body()).isEqualTo(200);
    assertThat(outbox.body()).contains("\"failed\":0");
  }

  @Test
  @Order(7)
  void anOperatorSignsInToTheConsoleAndSeesTheApplicationsAddresses() throws Exception {
    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(deployment.base().resolve("/console/").toString());
      browser.signIn(ServerScript.OPERATOR, ServerScript.PASSWORD);
      browser.waitFor("addresses");
      browser.waitForGridCell("jdbc://orders@shop/placed");
      browser.waitForGridCell("jdbc://shipping@shop/orders_dlq");
      assertThat(browser.title()).isEqualTo("Dashboard · Mailbox");
      assertThat(browser.waitFor("summary").getText()).contains("online");
      browser.screenshot(
          Path.of(System.getProperty("mailbox.repository"))
              .resolve("server-config/target/screenshots")
              .resolve(deployment.server().toLowerCase(Locale.ROOT).replace(' ', '-') + ".png"));
    }
  }

  // --- the example application and the admin API over HTTP -------------------------------------

  private String placeOrder(boolean rollBack) throws Exception {
    HttpResponse<String> placed =
        post("/orders-app/api/orders?item=scenario&quantity=1&fail=" + rollBack, false);
    assertThat(placed.statusCode()).as(placed.body()).isEqualTo(rollBack ? 409 : 202);
    assertThat(placed.body()).contains("\"committed\":" + !rollBack);
    return field(placed.body(), "orderId");
  }

  /** The JSON array {@code name} of the example's progress report. */
  private String progress(String name) throws Exception {
    String body = get("/orders-app/api/orders/progress", false).body();
    Matcher list = Pattern.compile("\"" + name + "\":\\[([^\\]]*)\\]").matcher(body);
    assertThat(list.find()).as(body).isTrue();
    return list.group(1);
  }

  private void awaitProgress(String name, String order, Predicate<String> done) throws Exception {
    Instant deadline = Instant.now().plus(DELIVERY);
    String list = progress(name);
    while (!done.test(list) && Instant.now().isBefore(deadline)) {
      Thread.sleep(250);
      list = progress(name);
    }
    assertThat(done.test(list))
        .as(
            "%s on %s: %s of order %s, within %s; now %s",
            deployment.server(), name, name, order, DELIVERY, list)
        .isTrue();
  }

  private void awaitAdmin(String path, Predicate<String> done) throws Exception {
    Instant deadline = Instant.now().plus(DELIVERY);
    HttpResponse<String> response = get(path, true);
    while (!(response.statusCode() == 200 && done.test(response.body()))
        && Instant.now().isBefore(deadline)) {
      Thread.sleep(250);
      response = get(path, true);
    }
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(done.test(response.body()))
        .as("%s on %s within %s: %s", path, deployment.server(), DELIVERY, response.body())
        .isTrue();
  }

  private HttpResponse<String> get(String path, boolean signedIn) throws Exception {
    return call(request(path).GET(), signedIn);
  }

  private HttpResponse<String> post(String path, boolean signedIn) throws Exception {
    return call(request(path).POST(HttpRequest.BodyPublishers.noBody()), signedIn);
  }

  private static HttpResponse<String> call(HttpRequest.Builder request, boolean signedIn)
      throws Exception {
    if (signedIn) {
      request.header("Authorization", operator());
    }
    return send(request.build());
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(deployment.base().resolve(path)).timeout(Duration.ofSeconds(30));
  }

  static HttpResponse<String> send(HttpRequest request) throws Exception {
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static String operator() {
    return basic(ServerScript.OPERATOR, ServerScript.PASSWORD);
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static String field(String json, String name) {
    Matcher value = Pattern.compile("\"" + name + "\":\"([^\"]+)\"").matcher(json);
    assertThat(value.find()).as("%s in %s", name, json).isTrue();
    return value.group(1);
  }

  private static String quoted(String text) {
    return "\"" + text + "\"";
  }

  private static long occurrences(String list, String order) {
    return Pattern.compile(Pattern.quote(quoted(order))).matcher(list).results().count();
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
