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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one server {@link RunScriptSmokeIT} starts with the README's start script, and what every
 * journey of that IT shares: its port, process id and credentials, the counters its
 * {@code @AfterAll} checks against the database, and the HTTP and JSON helpers. Static because the
 * IT starts the server once, in {@code @BeforeAll}, for all its tests (a boot costs about a
 * minute).
 */
final class SmokeServer {
  static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  static final Path DATA = Path.of(System.getProperty("mailbox.testData")).toAbsolutePath();
  static final String USERNAME = "smoke-operator";
  static final String PASSWORD = UUID.randomUUID().toString();
  static final String VIEWER = "smoke-viewer";
  static final String VIEWER_PASSWORD = UUID.randomUUID().toString();

  /**
   * The password of a broker URI pointed at a closed port. The adapter reads, checks and logs (as
   * {@code amqp://***@host:port}) the URI when it starts; the amqp: provider itself is not started,
   * since an unreachable broker marks the adapter not ready (measured: /health/ready 503).
   */
  static final String AMQP_PASSWORD = "amqpSecret" + UUID.randomUUID().toString().replace("-", "");

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * The orders the tests place and commit with a fixed count (the rolled-back "ghost" is not one of
   * them; the order sent twice with one Idempotency-Key is one); the rates test adds as many as it
   * needs.
   */
  static final int FIXED_ORDERS = 7;

  static final AtomicInteger RATE_ORDERS = new AtomicInteger();

  private static int port;
  private static int amqpPort;
  static final String ALERTED = "jdbc://smoke@console/alerts";
  private static long pid;
  private static String scriptOutput;

  private SmokeServer() {}

  /**
   * Starts the server on a fresh data folder and a free port, its broker URI pointed at another
   * free port where nothing listens.
   */
  static void startFresh() throws Exception {
    MicroStartScript.deleteRecursively(DATA);
    port = MicroStartScript.freePort();
    amqpPort = MicroStartScript.freePort(); // nothing listens there
    startServer();
  }

  /** Starts the server with the start script on {@link #DATA} and {@link #port}. */
  static void startServer() throws Exception {
    MicroStartScript.Started started =
        MicroStartScript.start(
            REPOSITORY,
            port,
            DATA,
            Map.of(
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
  static void stopServer() throws Exception {
    MicroStartScript.stop(pid, 60);
  }

  /** The server's HTTP port, the same after a restart. */
  static int port() {
    return port;
  }

  /** The port the broker URI points at, where nothing listens. */
  static int amqpPort() {
    return amqpPort;
  }

  /** The process id of the running server; 0 until the script started one. */
  static long pid() {
    return pid;
  }

  /** What the start script printed when it last started the server. */
  static String scriptOutput() {
    return scriptOutput;
  }

  static String amqpUri() {
    return "amqp://smoke:" + AMQP_PASSWORD + "@127.0.0.1:" + amqpPort + "/%2F";
  }

  /** Every secret this run configured: the accounts' passwords, the broker's. */
  static List<String> configuredSecrets() throws IOException {
    List<String> secrets = new ArrayList<>(List.of(PASSWORD, VIEWER_PASSWORD, AMQP_PASSWORD));
    // Generated only when no console password is given; scanned for too should a run make one.
    Path generated = DATA.resolve("console-password");
    if (Files.exists(generated)) {
      secrets.add(Files.readString(generated).strip());
    }
    return secrets;
  }

  /** Browser sign-ins of the operator so far: each one must be in the audit exactly once. */
  static final AtomicInteger OPERATOR_SIGN_INS = new AtomicInteger();

  static void signInAsOperator(ConsoleBrowser browser) {
    browser.signIn(USERNAME, PASSWORD);
    OPERATOR_SIGN_INS.incrementAndGet();
  }

  static String url(String path) {
    return "http://localhost:" + port + path;
  }

  static HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  static HttpResponse<String> post(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url(path)))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** POSTs an order to the example ({@code path} with its query). */
  static HttpResponse<String> placeOrder(String path) throws Exception {
    return post(path);
  }

  static HttpResponse<String> postWithKey(String path, String key) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url(path)))
            .header("Idempotency-Key", key)
            .timeout(Duration.ofSeconds(20))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** Waits until the order went through the channel pipeline (invoiced) and the MDB (shipped). */
  static void awaitProgress(String orderId) throws Exception {
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

  static String jsonString(String json, String field) {
    Matcher matcher = Pattern.compile("\"" + field + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
    assertThat(matcher.find()).as(field + " in " + json).isTrue();
    return matcher.group(1);
  }

  /** An admin API call with explicit headers (name, value, ...) and a body of its own type. */
  static HttpResponse<String> call(
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

  static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  static HttpResponse<String> api(String[] endpoint, String user, String password)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url(endpoint[1]))).timeout(Duration.ofSeconds(20));
    if (user != null) {
      String basic =
          Base64.getEncoder()
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

  static void assertJsonRefusal(
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
}
