package io.mailbox.server.payaramicro;

import static io.mailbox.server.payaramicro.SmokeServer.PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.REPOSITORY;
import static io.mailbox.server.payaramicro.SmokeServer.USERNAME;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER_PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.api;
import static io.mailbox.server.payaramicro.SmokeServer.awaitProgress;
import static io.mailbox.server.payaramicro.SmokeServer.get;
import static io.mailbox.server.payaramicro.SmokeServer.jsonString;
import static io.mailbox.server.payaramicro.SmokeServer.placeOrder;
import static io.mailbox.server.payaramicro.SmokeServer.signInAsOperator;
import static io.mailbox.server.payaramicro.SmokeServer.url;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.server.browser.ConsoleBrowser;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in headless Chromium for {@link RunScriptSmokeIT}: signing in (wrong and right
 * password), what an operator and a viewer see and may do, a queued message opened, moved and
 * deleted.
 */
final class ConsoleJourneys {
  private ConsoleJourneys() {}

  static void theConsoleAnswersWithTheSignInPage() throws Exception {
    HttpResponse<String> page = get("/console/");
    assertThat(page.statusCode()).isEqualTo(200);

    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      browser.waitFor("sign-in");
      assertThat(browser.title()).isEqualTo("Sign in · Mailbox");
    }
  }

  static void aWrongPasswordIsRefusedAndTheDashboardStaysClosed() throws Exception {
    try (ConsoleBrowser browser = new ConsoleBrowser()) {
      browser.open(url("/console/"));
      browser.signIn(USERNAME, "not-" + PASSWORD);

      assertThat(browser.waitFor("login-error").getText()).isEqualTo("Wrong username or password.");
      assertThat(browser.title()).isEqualTo("Sign in · Mailbox");
    }
  }

  static void aSignedInOperatorSeesTheExamplesAddressAfterItPosted() throws Exception {
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

  static void anOperatorSeesTheOutboxParkedAndAuditViewsWithTheirControls() throws Exception {
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

  static void anOperatorSendsATestMessageFromTheAddressViewAndItIsQueuedAndAudited()
      throws Exception {
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
      new WebDriverWait(browser.driver(), Duration.ofSeconds(20))
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

  static void anOperatorOpensAQueuedMessageInFullMovesItAndDeletesAnother() throws Exception {
    String from = "jdbc://smoke@console/detail";
    String to = "jdbc://smoke@console/held";
    String order = "{\"order\":\"o-42\",\"items\":[{\"sku\":\"book\",\"quantity\":2}]}";
    for (String body : List.of(order, "plain text, not JSON")) {
      String request = "{\"address\":\"" + from + "\",\"body\":" + Json.createValue(body) + "}";
      assertThat(
              api(
                      new String[] {"POST", "/console/api/addresses/test-message", request},
                      USERNAME,
                      PASSWORD)
                  .statusCode())
          .isEqualTo(200);
    }
    JsonArray listed =
        Json.createReader(
                new StringReader(
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
    JsonObject json = listed.getJsonObject(0);
    JsonObject text = listed.getJsonObject(1);
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
        .contains("\"body\":" + Json.createValue(order))
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
      new WebDriverWait(browser.driver(), Duration.ofSeconds(20))
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

  static void aViewerSeesEveryViewButNoControlThatChangesAnything() throws Exception {
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
}
