package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's database outage: the start script's server on PostgreSQL (MAILBOX_DATASOURCE) takes
 * the example's orders at concurrency 8 — relay, inbox and jdbc: all busy — when PostgreSQL is
 * stopped for 20 s and started again. Readiness must turn DOWN within its bound and come back by
 * itself; once everything is delivered, every acknowledged order is there, invoiced and shipped
 * exactly once, with nothing dead-lettered or parked, and no manual step.
 *
 * <p>It stops the machine's PostgreSQL, so it must never run beside another PostgreSQL test:
 * failsafe runs this module's ITs one after another, and other modules' tests run in other phases.
 * PostgreSQL is started again whatever happens (finally, and @AfterAll).
 */
class PostgresOutageIT {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  private static final Path DATA =
      Path.of(System.getProperty("mailbox.testData"))
          .toAbsolutePath()
          .resolveSibling("outage-data");
  private static final String USERNAME = "outage-operator";
  private static final String PASSWORD = "Outage-" + UUID.randomUUID();
  private static final Duration OUTAGE = Duration.ofSeconds(20);

  /** Readiness must say DOWN within this after the database went away. */
  private static final Duration DOWN_BOUND = Duration.ofSeconds(15);

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private static long pid;

  @AfterAll
  static void leaveTheMachineAsFound() throws Exception {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    if (!LocalPostgres.isUp()) {
      LocalPostgres.start();
    }
  }

  @Test
  void aTwentySecondDatabaseOutageMidTrafficLosesNothingAndAppliesNothingTwice() throws Exception {
    String url = LocalPostgres.freshDatabase("mailbox_outage");
    MicroStartScript.deleteRecursively(DATA);
    int port = MicroStartScript.freePort();
    String base = "http://localhost:" + port;
    pid =
        MicroStartScript.start(
                REPOSITORY,
                port,
                DATA,
                Map.of(
                    "MAILBOX_DATASOURCE", "postgresql",
                    "MAILBOX_PG_URL", url,
                    "MAILBOX_PG_USER", "postgres",
                    "MAILBOX_CONSOLE_USERNAME", USERNAME,
                    "MAILBOX_CONSOLE_PASSWORD", PASSWORD))
            .pid();

    Duration downAfter;
    String downAnswer;
    Duration upAfterReturn;
    OrderTraffic traffic = new OrderTraffic(8, java.util.List.of(base));
    try {
      Thread.sleep(6_000);
      int beforeOutage = traffic.acknowledged().size();
      assertThat(beforeOutage).as("orders acknowledged before the outage").isGreaterThan(20);
      Instant stopped = Instant.now();
      LocalPostgres.stop();
      Instant downSeen = null;
      String answer = "";
      try {
        while (Duration.between(stopped, Instant.now()).compareTo(OUTAGE) < 0) {
          HttpResponse<String> ready = ready(base);
          if (downSeen == null && ready != null && ready.statusCode() == 503) {
            downSeen = Instant.now();
            answer = ready.body();
          }
          Thread.sleep(250);
        }
      } finally {
        LocalPostgres.start();
      }
      downAfter = downSeen == null ? null : Duration.between(stopped, downSeen);
      downAnswer = answer;
      upAfterReturn = awaitReady(base, Duration.ofSeconds(120)); // measured from the return
      Thread.sleep(8_000); // traffic on the recovered server too
    } finally {
      traffic.close();
    }

    Instant settling = Instant.now();
    try {
      new ConsoleApi(base, USERNAME, PASSWORD).awaitEverythingDelivered(Duration.ofSeconds(240));
    } catch (AssertionError stuck) {
      Path dump = MicroStartScript.threadDump(pid, DATA);
      throw new AssertionError(stuck.getMessage() + " (the server's threads: " + dump + ")", stuck);
    }
    long settleMillis = Duration.between(settling, Instant.now()).toMillis();
    HungDatabase hung =
        readinessWhileTheTablesAreLocked(base, url, new ConsoleApi(base, USERNAME, PASSWORD));
    MicroStartScript.stop(pid, 90);

    OrderLedger ledger;
    try (Connection db = DriverManager.getConnection(url, "postgres", "")) {
      ledger = OrderLedger.read(db, traffic.acknowledged());
    }
    System.out.printf(
        "PostgresOutageIT: %d acknowledged, %s; readiness DOWN %s after the stop (%s), UP %s after"
            + " the return; other answers %s (0 = no answer, -503 = 503 without Retry-After);"
            + " %d retries answered as already committed; all delivered %d ms after the traffic"
            + " stopped%n",
        traffic.acknowledged().size(),
        ledger.describe(),
        downAfter,
        downAnswer.replaceAll("\\s+", " "),
        upAfterReturn,
        traffic.refusalsByStatus(),
        traffic.replayed(),
        settleMillis);
    System.out.println("PostgresOutageIT, hung database: " + hung);
    ledger.assertThePromiseHolds("a 20 s database outage");
    assertThat(hung.slowestReadyMillis())
        .as("every /health/ready answered within the probe's bound (2 s) and a margin")
        .isLessThanOrEqualTo(HEALTH_ANSWER_BOUND.toMillis());
    assertThat(hung.downAfter())
        .as("readiness said down: timeout within the cache (5 s) and the bound (2 s)")
        .isNotNull()
        .isLessThanOrEqualTo(Duration.ofSeconds(10));
    assertThat(hung.downBody()).contains("timeout");
    assertThat(hung.liveWhileLocked())
        .as("/health/live while the tables were locked")
        .isEqualTo(200);
    assertThat(hung.metricsAnswered())
        .as("/console/api/metrics while the tables were locked")
        .isTrue();
    assertThat(hung.metricsMillis())
        .as("the metrics answered within the probes' bound while the tables were locked")
        .isLessThanOrEqualTo(HEALTH_ANSWER_BOUND.toMillis());
    assertThat(hung.journey())
        .as("the journey while the tables were locked names what it could not search")
        .contains("\"hops\"")
        .contains("outbox and inbox not searched: the database did not answer")
        .contains("jdbc: down");
    // The outbox query's share of the deadline (1.7 s), then the snapshot's jdbc: listing, which
    // fails after its read bound (5 s) and marks jdbc: down; nothing else waits on the database.
    assertThat(hung.journeyMillis())
        .as("the journey answered within its bounds and a margin while the tables were locked")
        .isLessThanOrEqualTo(10_000);
    assertThat(hung.upAfterRelease()).as("ready again once the lock was released").isNotNull();
    assertThat(downAfter).as("readiness turned DOWN during the outage").isNotNull();
    assertThat(downAfter).as("time until readiness said DOWN").isLessThanOrEqualTo(DOWN_BOUND);
    assertThat(upAfterReturn).as("readiness UP again after the database returned").isNotNull();
    // Refused while the database was away: 503 with Retry-After and nothing else. A lost or
    // unusable connection is "not now"; a commit cut off by the stop (its outcome unknown: up to
    // 3 per run answered 500 before) is a 503 too, because the client's Idempotency-Key makes its
    // retry safe — OrderTraffic sends every order again with its key until it is answered, so a
    // committed one is answered as replayed and never placed twice (the ledger checks that).
    var refusals = traffic.refusalsByStatus();
    assertThat(refusals.keySet())
        .as(
            "answers during the outage other than 2xx, 503 with Retry-After and no answer: %s",
            refusals)
        .isSubsetOf(0, 503);
  }

  /** A health answer must come within this, whatever the database does (bound 2 s + margin). */
  private static final Duration HEALTH_ANSWER_BOUND = Duration.ofMillis(3_500);

  /**
   * What readiness did while every Mailbox table was locked (ACCESS EXCLUSIVE: every read of them
   * waits) by the test: a database that accepts connections and never answers.
   */
  record HungDatabase(
      long slowestReadyMillis,
      Duration downAfter,
      String downBody,
      int liveWhileLocked,
      long metricsMillis,
      boolean metricsAnswered,
      String journey,
      long journeyMillis,
      Duration upAfterRelease) {}

  private static HungDatabase readinessWhileTheTablesAreLocked(
      String base, String url, ConsoleApi console) throws Exception {
    long slowest = 0;
    Duration downAfter = null;
    String downBody = "";
    int live;
    long metricsMillis;
    boolean metricsAnswered;
    String journey;
    long journeyMillis;
    try (Connection lock = DriverManager.getConnection(url, "postgres", "")) {
      lock.setAutoCommit(false);
      java.util.List<String> tables = new java.util.ArrayList<>();
      try (var s = lock.createStatement();
          var rs =
              s.executeQuery(
                  "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename"
                      + " LIKE 'mbx%'")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      assertThat(tables).as("the Mailbox tables to lock").isNotEmpty();
      try (var s = lock.createStatement()) {
        s.setQueryTimeout(30);
        s.execute("LOCK TABLE " + String.join(", ", tables) + " IN ACCESS EXCLUSIVE MODE");
      }
      Instant locked = Instant.now();
      while (downAfter == null
          && Duration.between(locked, Instant.now()).compareTo(Duration.ofSeconds(20)) < 0) {
        Instant asked = Instant.now();
        HttpResponse<String> ready = ready(base);
        slowest = Math.max(slowest, Duration.between(asked, Instant.now()).toMillis());
        if (ready != null && ready.statusCode() == 503 && ready.body().contains("timeout")) {
          downAfter = Duration.between(locked, Instant.now());
          downBody = ready.body().replaceAll("\\s+", " ");
        }
        Thread.sleep(250);
      }
      HttpResponse<String> liveness = get(base + "/health/live");
      live = liveness == null ? 0 : liveness.statusCode();
      // The metrics read the same cached probes: with the tables locked they still answer, at
      // once, with the counters (from memory) and the gauges' last values.
      Instant asked = Instant.now();
      metricsAnswered = console.get("/console/api/metrics").contains("mailbox_posted_total{");
      metricsMillis = Duration.between(asked, Instant.now()).toMillis();
      // "Where is my message?" on a hung database: an answer, in its time bound, that says what
      // it could not search — never a hang, never a bare 500.
      asked = Instant.now();
      journey = console.get("/console/api/journey?q=order-while-locked");
      journeyMillis = Duration.between(asked, Instant.now()).toMillis();
      lock.rollback();
    }
    return new HungDatabase(
        slowest,
        downAfter,
        downBody,
        live,
        metricsMillis,
        metricsAnswered,
        journey,
        journeyMillis,
        awaitReady(base, Duration.ofSeconds(30)));
  }

  /** GET /health/ready; null when the server does not answer. */
  private static HttpResponse<String> ready(String base) {
    return get(base + "/health/ready");
  }

  private static HttpResponse<String> get(String url) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      return null;
    }
  }

  /** How long until readiness answers 200, or null if not within {@code bound}. */
  private static Duration awaitReady(String base, Duration bound) throws InterruptedException {
    Instant from = Instant.now();
    while (Duration.between(from, Instant.now()).compareTo(bound) < 0) {
      HttpResponse<String> ready = ready(base);
      if (ready != null && ready.statusCode() == 200) {
        return Duration.between(from, Instant.now());
      }
      Thread.sleep(250);
    }
    return null;
  }
}
