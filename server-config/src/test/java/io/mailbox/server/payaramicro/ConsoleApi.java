package io.mailbox.server.payaramicro;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/** The admin API of one server, signed in with HTTP basic, as the ITs read it. */
final class ConsoleApi {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String base;
  private final String authorization;

  ConsoleApi(String base, String username, String password) {
    this.base = base;
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** GET {@code path} (e.g. {@code /console/api/outbox}); the body whatever the status. */
  String get(String path) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", authorization)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /**
   * Waits until the outbox has nothing pending and no address has unread or leased copies, at most
   * {@code within}; fails with what was seen last.
   */
  void awaitEverythingDelivered(Duration within) throws Exception {
    Instant deadline = Instant.now().plus(within);
    String outbox = "";
    String snapshot = "";
    while (Instant.now().isBefore(deadline)) {
      try {
        outbox = get("/console/api/outbox");
        snapshot = get("/console/api/snapshot");
      } catch (java.io.IOException notAnsweringYet) {
        outbox = notAnsweringYet.toString();
      }
      // Every provider must have answered: a provider whose listing failed is reported down and
      // its addresses are missing, which would read as "nothing left" (RedisChannelsIT once
      // returned here with 98 orders still on their way).
      if (outbox.contains("\"pending\":0")
          && snapshot.contains("\"unread\":0,\"inFlight\":0,")
          && !snapshot.matches("(?s).*\"(unread|inFlight)\":[1-9].*")
          && !snapshot.startsWith("{\"state\":\"offline\"")
          && !snapshot.contains("\"reachability\":\"down\"")
          && !snapshot.contains("\"started\":false")) {
        return;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError(
        "not everything was delivered within " + within + ": " + outbox + " " + snapshot);
  }
}
