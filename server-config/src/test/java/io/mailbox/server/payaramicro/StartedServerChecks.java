package io.mailbox.server.payaramicro;

import static io.mailbox.server.payaramicro.SmokeServer.DATA;
import static io.mailbox.server.payaramicro.SmokeServer.USERNAME;
import static io.mailbox.server.payaramicro.SmokeServer.get;
import static io.mailbox.server.payaramicro.SmokeServer.pid;
import static io.mailbox.server.payaramicro.SmokeServer.port;
import static io.mailbox.server.payaramicro.SmokeServer.scriptOutput;
import static io.mailbox.server.payaramicro.SmokeServer.url;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;

/**
 * Checks of the started server itself for {@link RunScriptSmokeIT}: what the start script prints,
 * what the server listens on and keeps private, its health checks and its OpenAPI document.
 */
final class StartedServerChecks {
  private StartedServerChecks() {}

  static void theScriptPrintsWhereTheConsoleIsAndHowToSignIn() {
    assertThat(scriptOutput())
        .contains("Console   " + url("/console/"))
        .contains("user '" + USERNAME + "'");
  }

  /**
   * Nothing listens beyond what the product needs: the server's only listening socket is its HTTP
   * port (no H2 TCP server, no Hazelcast member), and the data folder is its owner's only.
   */
  static void theServerListensOnItsHttpPortOnlyAndKeepsItsDataPrivate() throws Exception {
    Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
    String sockets = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(ss.waitFor()).isZero();
    List<String> ours =
        sockets.lines().filter(line -> line.contains("pid=" + pid() + ",")).toList();
    assertThat(ours)
        .as("listening sockets of the server (pid %d):%n%s", pid(), sockets)
        .hasSize(1)
        .allMatch(line -> line.matches("\\S+\\s+\\d+\\s+\\d+\\s+\\S*:" + port() + "\\s.*"));

    try (var files = Files.walk(DATA)) {
      for (Path file : files.toList()) {
        var permissions = Files.getPosixFilePermissions(file);
        assertThat(permissions)
            .as("permissions of %s", file)
            .doesNotContain(
                PosixFilePermission.GROUP_READ,
                PosixFilePermission.OTHERS_READ,
                PosixFilePermission.OTHERS_WRITE);
      }
    }
  }

  static void theAdaptersAndTheOutboxsReadinessChecksAreUpAndRegisteredOncePerServer()
      throws Exception {
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

  static void theServerPublishesTheApisOpenApiDocument() throws Exception {
    HttpResponse<String> openApi = get("/openapi");

    assertThat(openApi.statusCode()).isEqualTo(200);
    assertThat(openApi.body()).contains("/api/snapshot").contains("/api/outbox/release");
  }
}
