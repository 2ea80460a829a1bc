package io.mailbox.server.payaramicro;

import static io.mailbox.server.payaramicro.SmokeServer.RATE_ORDERS;
import static io.mailbox.server.payaramicro.SmokeServer.REPOSITORY;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER_PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.api;
import static io.mailbox.server.payaramicro.SmokeServer.awaitProgress;
import static io.mailbox.server.payaramicro.SmokeServer.get;
import static io.mailbox.server.payaramicro.SmokeServer.jsonString;
import static io.mailbox.server.payaramicro.SmokeServer.placeOrder;
import static io.mailbox.server.payaramicro.SmokeServer.post;
import static io.mailbox.server.payaramicro.SmokeServer.postWithKey;
import static io.mailbox.server.payaramicro.SmokeServer.signInAsOperator;
import static io.mailbox.server.payaramicro.SmokeServer.url;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.server.browser.ConsoleBrowser;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Predicate;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The example's orders for {@link RunScriptSmokeIT}: refused input, idempotency, a rollback that
 * leaves nothing, and orders whose shipping requests die while the courier is down, followed to
 * their dead letters and replayed from the console.
 */
final class OrderJourneys {
  private OrderJourneys() {}

  static void badOrderInputIsRefusedWithACode() throws Exception {
    HttpResponse<String> refused = placeOrder("/orders-app/api/orders?quantity=0");

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("ORD-400");
  }

  static void anOrderSentAgainWithItsIdempotencyKeyIsAnsweredNotPlacedTwice() throws Exception {
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

  static void aRolledBackOrderLeavesNothingBehindNeitherRowNorEventNorLetter() throws Exception {
    HttpResponse<String> refused = placeOrder("/orders-app/api/orders?item=ghost&fail=true");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    String ghost = jsonString(refused.body(), "orderId");

    // A committed order placed afterwards gets through; the rolled-back one never does.
    HttpResponse<String> placed = placeOrder("/orders-app/api/orders?item=real");
    awaitProgress(jsonString(placed.body(), "orderId"));
    Thread.sleep(500);
    assertThat(get("/orders-app/api/orders/progress").body()).doesNotContain(ghost);
  }

  static void anOrderIsFollowedFromItsOutboxRowThroughADeadLetterToItsReplayAndInboxMarker()
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
  private static String awaitJourney(String term, Predicate<String> wanted) throws Exception {
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
  static void shippingRequestsThatDiedWhileTheCourierWasDownAreReplayedFromTheConsoleAndShipped()
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
        Json.createReader(new StringReader(api(records, VIEWER, VIEWER_PASSWORD).body()))
            .readObject()
            .getJsonArray("records")
            .getValuesAs(JsonObject.class)
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
      new WebDriverWait(browser.driver(), Duration.ofSeconds(20))
          .until(d -> browser.waitFor("address-numbers").getText().contains("1 unread"));

      browser.open(url("/console/dead-letters?address=" + deadLetters));
      new WebDriverWait(browser.driver(), Duration.ofSeconds(20))
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

  /** The "shipped" array of the example's progress, as JSON text. */
  private static String shippedOrders() throws Exception {
    String body = get("/orders-app/api/orders/progress").body();
    int start = body.indexOf("\"shipped\":[");
    return start < 0 ? "" : body.substring(start, body.indexOf(']', start) + 1);
  }
}
