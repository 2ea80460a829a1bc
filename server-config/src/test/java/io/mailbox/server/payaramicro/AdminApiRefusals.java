package io.mailbox.server.payaramicro;

import static io.mailbox.server.payaramicro.AdminApiChecks.INBOX;
import static io.mailbox.server.payaramicro.AdminApiChecks.SCRATCH;
import static io.mailbox.server.payaramicro.SmokeServer.AMQP_PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.USERNAME;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER_PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.amqpUri;
import static io.mailbox.server.payaramicro.SmokeServer.assertJsonRefusal;
import static io.mailbox.server.payaramicro.SmokeServer.basic;
import static io.mailbox.server.payaramicro.SmokeServer.call;
import static io.mailbox.server.payaramicro.SmokeServer.configuredSecrets;
import static io.mailbox.server.payaramicro.SmokeServer.get;
import static io.mailbox.server.payaramicro.SmokeServer.port;
import static io.mailbox.server.payaramicro.SmokeServer.signInAsOperator;
import static io.mailbox.server.payaramicro.SmokeServer.url;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.server.browser.ConsoleBrowser;
import java.net.Socket;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.openqa.selenium.Cookie;

/**
 * Issue 20 for {@link RunScriptSmokeIT}: how the admin API refuses (JSON with a stable code, no
 * echo of the refused value or of a secret), cross-site requests, browser security headers, the
 * body limit and the throttling of wrong passwords.
 */
final class AdminApiRefusals {
  private AdminApiRefusals() {}

  static void refusedAdminCallsNeverCarryAConfiguredSecretInTheirErrorBodies() throws Exception {
    String operator = basic(USERNAME, PASSWORD);
    List<HttpResponse<String>> refused = new ArrayList<>();
    refused.add(
        call(
            "POST",
            "/console/api/addresses/recover?address="
                + URLEncoder.encode(amqpUri(), StandardCharsets.UTF_8),
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

  static void everyRefusalOfTheAdminApiIsJsonWithAStableCodeAndNoEchoOfTheRefusedValue()
      throws Exception {
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

  static void aSignedInConsoleSessionCookieAloneCannotChangeAnythingThroughTheAdminApi()
      throws Exception {
    Cookie session;
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

  static void everyResponseCarriesTheBrowserSecurityHeaders() throws Exception {
    for (HttpResponse<String> response :
        List.of(
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

  static void aBodyOverTheLimitIsRefusedWith413() throws Exception {
    // Over a plain socket: the server answers from the declared length at once, before the body
    // (and closes the connection); java.net.http would block sending the rest and time out.
    String answer;
    try (Socket socket = new Socket("localhost", port())) {
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

  static void repeatedWrongPasswordsAreThrottledAndEveryRefusalIsAudited() throws Exception {
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
