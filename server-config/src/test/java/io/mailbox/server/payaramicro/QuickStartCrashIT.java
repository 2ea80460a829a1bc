package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The promise on the product as shipped: the start script's server on its embedded defaults takes
 * the example's orders at concurrency 8 and is killed in the middle (SIGKILL, then SIGTERM), then
 * restarted on the same data folder. Every order answered 2xx must be in the database with both its
 * outbox rows, invoiced exactly once and shipped exactly once, with nothing dead-lettered or
 * parked. The figures are printed for docs/reliability.md.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QuickStartCrashIT {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  private static final Path DATA =
      Path.of(System.getProperty("mailbox.testData")).toAbsolutePath().resolveSibling("crash-data");
  private static final String USERNAME = "crash-operator";
  private static final String PASSWORD = "Crash-" + java.util.UUID.randomUUID();
  private static final int CLIENTS = 8;
  private static final Duration LOAD_BEFORE_STOP = Duration.ofSeconds(6);
  private static final Duration SETTLE = Duration.ofSeconds(150);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Orders answered 2xx with committed:true, over every round. */
  private static final Set<String> ACKNOWLEDGED = ConcurrentHashMap.newKeySet();

  private static int port;
  private static long pid;

  @BeforeAll
  static void freshDataFolder() throws Exception {
    MicroStartScript.deleteRecursively(DATA);
    port = MicroStartScript.freePort();
  }

  @AfterAll
  static void stopWhatIsLeft() {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  @Test
  @Order(1)
  void aKillMinus9MidStreamLosesNoAcknowledgedOrderAndAppliesNoneTwice() throws Exception {
    crashAndRecover(true);
  }

  @Test
  @Order(2)
  void aGracefulStopMidStreamLosesNoAcknowledgedOrderAndAppliesNoneTwice() throws Exception {
    crashAndRecover(false);
  }

  private static void crashAndRecover(boolean kill) throws Exception {
    String round = kill ? "SIGKILL" : "SIGTERM";
    start();
    int before = ACKNOWLEDGED.size();
    AtomicBoolean stop = new AtomicBoolean();
    List<Integer> failures = new ArrayList<>();
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    for (int i = 0; i < CLIENTS; i++) {
      clients.execute(() -> placeOrdersUntil(stop, failures));
    }
    Thread.sleep(LOAD_BEFORE_STOP.toMillis());
    ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
    Instant stoppedAt = Instant.now();
    if (kill) {
      server.destroyForcibly(); // SIGKILL
    } else {
      server.destroy(); // SIGTERM: the server's own shutdown
    }
    server.onExit().get(90, TimeUnit.SECONDS);
    long stopMillis = Duration.between(stoppedAt, Instant.now()).toMillis();
    stop.set(true);
    clients.shutdown();
    assertThat(clients.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    int acknowledged = ACKNOWLEDGED.size() - before;
    assertThat(acknowledged).as("orders acknowledged before the " + round).isGreaterThan(20);

    Instant restart = Instant.now();
    start();
    long recoveryMillis;
    try {
      awaitEverythingDelivered();
      recoveryMillis = Duration.between(restart, Instant.now()).toMillis();
    } finally {
      stopGracefully();
    }

    Figures figures = checkTheDatabase();
    System.out.printf(
        "QuickStartCrashIT %s: %d acknowledged this round (%d in all), %d orders in the database,"
            + " lost %d, acknowledged without outbox rows %d (unacknowledged but committed %d),"
            + " invoiced twice %d, shipped twice %d, not invoiced"
            + " %d, not shipped %d, dead letters %d, parked %d; refused requests while stopping"
            + " %s; stop took %d ms; restart to all delivered %d ms%n",
        round,
        acknowledged,
        ACKNOWLEDGED.size(),
        figures.orders,
        figures.lost,
        figures.withoutOutboxRows,
        figures.unacknowledgedWithoutOutboxRows,
        figures.invoicedTwice,
        figures.shippedTwice,
        figures.notInvoiced,
        figures.notShipped,
        figures.deadLetters,
        figures.parked,
        summarize(failures),
        stopMillis,
        recoveryMillis);
    assertThat(figures.lost).as("acknowledged orders missing after the " + round).isZero();
    assertThat(figures.withoutOutboxRows)
        .as("acknowledged orders without both outbox rows")
        .isZero();
    assertThat(figures.notInvoiced).as("acknowledged orders never invoiced").isZero();
    assertThat(figures.invoicedTwice).as("orders invoiced twice").isZero();
    assertThat(figures.notShipped).as("acknowledged orders never shipped").isZero();
    assertThat(figures.shippedTwice).as("orders shipped twice").isZero();
    assertThat(figures.deadLetters).as("dead letters").isZero();
    assertThat(figures.parked).as("parked inbox deliveries").isZero();
  }

  private static void placeOrdersUntil(AtomicBoolean stop, List<Integer> failures) {
    Pattern id = Pattern.compile("\"orderId\":\"([^\"]+)\"");
    while (!stop.get()) {
      try {
        HttpResponse<String> response =
            HTTP.send(
                HttpRequest.newBuilder(
                        URI.create(base() + "/orders-app/api/orders?item=crash&quantity=1"))
                    .timeout(Duration.ofSeconds(20))
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = id.matcher(response.body());
        if (response.statusCode() / 100 == 2
            && response.body().contains("\"committed\":true")
            && m.find()) {
          ACKNOWLEDGED.add(m.group(1));
        } else {
          synchronized (failures) {
            failures.add(response.statusCode());
          }
        }
      } catch (Exception connectionLost) {
        synchronized (failures) {
          failures.add(0); // no answer: the server went away
        }
        sleepQuietly(50);
      }
    }
  }

  /** Waits until the outbox has nothing pending and no address has unread or leased copies. */
  private static void awaitEverythingDelivered() throws Exception {
    Instant deadline = Instant.now().plus(SETTLE);
    String outbox = "";
    String snapshot = "";
    while (Instant.now().isBefore(deadline)) {
      outbox = api("/console/api/outbox");
      snapshot = api("/console/api/snapshot");
      if (outbox.contains("\"pending\":0")
          && snapshot.contains("\"unread\":0,\"inFlight\":0,")
          && !snapshot.matches("(?s).*\"(unread|inFlight)\":[1-9].*")) {
        return;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError(
        "not everything was delivered within " + SETTLE + ": " + outbox + " " + snapshot);
  }

  private record Figures(
      int orders,
      int lost,
      int withoutOutboxRows,
      int unacknowledgedWithoutOutboxRows,
      int notInvoiced,
      int invoicedTwice,
      int notShipped,
      int shippedTwice,
      int deadLetters,
      int parked) {}

  /**
   * Orders missing either outbox row. Asserted for acknowledged orders (issue 19's definition); for
   * orders committed but never acknowledged (in flight at the stop) only printed: on Payara's
   * non-XA pool an order row and its outbox rows can commit on separate connections, a known open
   * defect (docs/reliability.md).
   */
  private static final String WITHOUT_OUTBOX_ROWS =
      "SELECT COUNT(*) FROM SHOP_ORDER o WHERE (NOT EXISTS (SELECT 1 FROM MBX_OUTBOX x"
          + " WHERE x.ID = 'ship-' || o.ID) OR NOT EXISTS (SELECT 1 FROM MBX_OUTBOX x"
          + " WHERE x.TOPIC = 'orders.placed.v1' AND x.ENVELOPE LIKE '%' || o.ID || '%'))";

  /** Reads the H2 file once the server is gone (nothing else may open it while it runs). */
  private static Figures checkTheDatabase() throws Exception {
    String url = "jdbc:h2:" + DATA.resolve("h2/mailbox") + ";MODE=LEGACY;IFEXISTS=TRUE";
    try (Connection db = DriverManager.getConnection(url, "", "")) {
      try (Statement s = db.createStatement()) {
        s.execute("CREATE LOCAL TEMPORARY TABLE ACKED(ID VARCHAR(64) PRIMARY KEY)");
      }
      try (PreparedStatement insert = db.prepareStatement("INSERT INTO ACKED VALUES (?)")) {
        for (String id : ACKNOWLEDGED) {
          insert.setString(1, id);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      return new Figures(
          count(db, "SELECT COUNT(*) FROM SHOP_ORDER"),
          count(
              db,
              "SELECT COUNT(*) FROM ACKED a WHERE NOT EXISTS"
                  + " (SELECT 1 FROM SHOP_ORDER o WHERE o.ID = a.ID)"),
          count(db, WITHOUT_OUTBOX_ROWS + " AND o.ID IN (SELECT ID FROM ACKED)"),
          count(db, WITHOUT_OUTBOX_ROWS + " AND o.ID NOT IN (SELECT ID FROM ACKED)"),
          count(
              db,
              "SELECT COUNT(*) FROM ACKED o WHERE NOT EXISTS"
                  + " (SELECT 1 FROM SHOP_INVOICE i WHERE i.ORDER_ID = o.ID)"),
          count(
              db,
              "SELECT COUNT(*) FROM (SELECT ORDER_ID FROM SHOP_INVOICE GROUP BY ORDER_ID"
                  + " HAVING COUNT(*) > 1)"),
          count(
              db,
              "SELECT COUNT(*) FROM ACKED o WHERE NOT EXISTS"
                  + " (SELECT 1 FROM SHOP_SHIPMENT s WHERE s.ORDER_ID = o.ID)"),
          count(
              db,
              "SELECT COUNT(*) FROM (SELECT ORDER_ID FROM SHOP_SHIPMENT GROUP BY ORDER_ID"
                  + " HAVING COUNT(*) > 1)"),
          count(db, "SELECT COUNT(*) FROM MBX_QUEUE WHERE ADDRESS LIKE '%\\_dlq%' ESCAPE '\\'"),
          count(db, "SELECT COUNT(*) FROM MBX_INBOX WHERE STATUS <> 'PROCESSED'"));
    }
  }

  private static int count(Connection db, String sql) throws Exception {
    try (Statement s = db.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static void start() throws Exception {
    pid =
        MicroStartScript.start(
                REPOSITORY,
                port,
                DATA,
                java.util.Map.of(
                    "MAILBOX_CONSOLE_USERNAME", USERNAME, "MAILBOX_CONSOLE_PASSWORD", PASSWORD))
            .pid();
  }

  private static void stopGracefully() throws Exception {
    MicroStartScript.stop(pid, 90);
  }

  private static String api(String path) throws Exception {
    String basic =
        Base64.getEncoder()
            .encodeToString((USERNAME + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(base() + path))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Basic " + basic)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static String summarize(List<Integer> failures) {
    synchronized (failures) {
      var byCode = new java.util.TreeMap<Integer, Integer>();
      failures.forEach(code -> byCode.merge(code, 1, Integer::sum));
      return byCode.isEmpty() ? "none" : byCode.toString() + " (0 = no answer)";
    }
  }

  private static String base() {
    return "http://localhost:" + port;
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
