package io.mailbox.server.payaramicro;

import static io.mailbox.server.payaramicro.SmokeServer.PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.USERNAME;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER;
import static io.mailbox.server.payaramicro.SmokeServer.VIEWER_PASSWORD;
import static io.mailbox.server.payaramicro.SmokeServer.api;
import static io.mailbox.server.payaramicro.SmokeServer.assertJsonRefusal;
import static io.mailbox.server.payaramicro.SmokeServer.basic;
import static io.mailbox.server.payaramicro.SmokeServer.call;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The admin API for {@link RunScriptSmokeIT}: every endpoint by role, every change audited, bad
 * input refused with a stable code.
 */
final class AdminApiChecks {
  static final String INBOX = "jdbc:shipping@shop/orders";
  static final String SCRATCH = "jdbc:smoke@console/scratch";

  /** Every endpoint: method, path, body (null for none), and whether it changes anything. */
  private static final List<String[]> ENDPOINTS =
      List.of(
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

  private AdminApiChecks() {}

  static void theAdminApiAnswersEveryEndpointByRole() throws Exception {
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

  static void everyChangeThroughTheApiIsAuditedWithWhoDidIt() throws Exception {
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

  static void badApiInputIsRefusedWithAStableCode() throws Exception {
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

  static void purgingEveryParkedRecordOfAnAddressNeedsTheAddressRepeated() throws Exception {
    String operator = basic(USERNAME, PASSWORD);
    String all = "/console/api/parked?address=" + SCRATCH;

    assertJsonRefusal(
        call("DELETE", all, null, null, "Authorization", operator), 400, "MBX-4022", null);
    HttpResponse<String> confirmed =
        call("DELETE", all + "&confirm=" + SCRATCH, null, null, "Authorization", operator);
    assertThat(confirmed.statusCode()).as(confirmed.body()).isEqualTo(200);
  }

  static void releasingTwentyOutboxRowsAnswersAndIsAuditedHoweverLongItsTarget() throws Exception {
    String ids =
        String.join(",", Stream.generate(() -> "\"" + UUID.randomUUID() + "\"").limit(20).toList());
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
}
