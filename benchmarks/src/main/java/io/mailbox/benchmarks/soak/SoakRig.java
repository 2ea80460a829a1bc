package io.mailbox.benchmarks.soak;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.RetryPolicy;
import io.mailbox.connector.provider.jdbc.JdbcProvider;
import io.mailbox.connector.provider.mem.MemoryBus;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * One provider behind a kernel, configured as a production adapter would run it with every failure
 * path switched on: retries (3 attempts, 1 ms backoff doubling), dead letters (one level, so a dead
 * letter given up again is parked) and, on {@code jdbc:}, a dedupe window. Owns its timer thread
 * and, for {@code jdbc:}, its connection pool.
 */
final class SoakRig implements AutoCloseable {
  /**
   * The dedupe window of the {@code jdbc:} run: every post is admitted through it. Short, so that
   * the sightings inside it reach their steady state well before the second checkpoint even in the
   * short run (a window longer than a checkpoint interval would still be filling up).
   */
  static final Duration DEDUPE_WINDOW = Duration.ofSeconds(1);

  /**
   * Four consumers at once: a commit waits for the disk, and PostgreSQL flushes concurrent commits
   * together, as it would for several consumers of one server.
   */
  static final int JDBC_LANES = 4;

  /** The adapter's default delivery cap ({@code jdbcMaxDeliveries}). */
  private static final int MAX_DELIVERIES = 10;

  private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/";
  private static final String SOAK_DATABASE = "mailbox_soak";

  final String scheme;
  final Mailbox mailbox;
  final MailboxProvider provider;
  final String where;
  final int lanes;
  final Duration lease;
  private final ExecutorScheduler scheduler;
  private final AutoCloseable resources;

  private SoakRig(
      String scheme,
      MailboxProvider provider,
      ExecutorScheduler scheduler,
      String where,
      int lanes,
      Duration lease,
      AutoCloseable resources) {
    this.scheme = scheme;
    this.lanes = lanes;
    this.lease = lease;
    this.provider = provider;
    this.scheduler = scheduler;
    this.where = where;
    this.resources = resources;
    provider.setRetryPolicy(RetryPolicy.of(3, Duration.ofMillis(1)));
    provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    this.mailbox = new Mailbox().register(provider);
    mailbox.start();
  }

  /** {@code "mem"} or {@code "jdbc"}. */
  static SoakRig of(String scheme) throws SQLException {
    return switch (scheme) {
      case "mem" -> mem();
      case "jdbc" -> jdbc(System.getProperty("mailbox.soak.jdbcUrl", ownPostgresDatabase()));
      default -> throw new IllegalArgumentException("unknown provider '" + scheme + "'");
    };
  }

  /** {@code mem:} on a private bus, with the opt-in lease sweeper every 500 ms. */
  static SoakRig mem() {
    ExecutorScheduler scheduler = new ExecutorScheduler();
    MailboxProvider provider =
        MailboxProvider.of(
            new MemoryProvider(
                MemoryBus.isolated(), Clock.systemUTC(), scheduler, Duration.ofMillis(500)));
    // One lane: the kernel's work is CPU, and a second thread would only take turns with it.
    return new SoakRig(
        "mem", provider, scheduler, "in this JVM", 1, Duration.ofMillis(100), () -> {});
  }

  /**
   * {@code jdbc:} through a HikariCP pool (as on a server), group commit on, on fresh {@code
   * MBX_QUEUE} / {@code MBX_QUEUE_SEEN} tables created from the shipped DDL by the provider.
   */
  static SoakRig jdbc(String url) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername(url.contains(":h2:") ? "sa" : "postgres");
    config.setMaximumPoolSize(JDBC_LANES + 2); // the lanes, the subscriber pump, a retry
    config.setPoolName("soak");
    HikariDataSource pool = new HikariDataSource(config);
    try (Connection c = pool.getConnection();
        Statement statement = c.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS MBX_QUEUE");
      statement.execute("DROP TABLE IF EXISTS MBX_QUEUE_SEEN");
    }
    ExecutorScheduler scheduler = new ExecutorScheduler();
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(
                    pool, Clock.systemUTC(), scheduler, true, MAX_DELIVERIES, Duration.ZERO)
                .withDedupeWindow(DEDUPE_WINDOW));
    // A lease of 1 s: a fetch of 50 rows takes ~100 ms on a loaded machine, and a shorter lease
    // would let the same fetch take its own first rows again.
    return new SoakRig("jdbc", provider, scheduler, url, JDBC_LANES, Duration.ofSeconds(1), pool);
  }

  /**
   * A database of its own on the local PostgreSQL, created when missing: the soak drops and
   * recreates its queue tables, which must never be the ones the test suites use at the same time.
   */
  private static String ownPostgresDatabase() {
    try (Connection c = DriverManager.getConnection(POSTGRES + "postgres", "postgres", "");
        Statement statement = c.createStatement()) {
      var exists =
          statement.executeQuery(
              "SELECT 1 FROM pg_database WHERE datname = '" + SOAK_DATABASE + "'");
      if (!exists.next()) {
        statement.execute("CREATE DATABASE " + SOAK_DATABASE);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "The jdbc: soak needs the local PostgreSQL (127.0.0.1:5432, user postgres) or"
              + " -Dmailbox.soak.jdbcUrl=...: "
              + e.getMessage(),
          e);
    }
    return POSTGRES + SOAK_DATABASE;
  }

  /** The provider's bookkeeping sizes plus the timers its scheduler holds. */
  Map<String, Long> sizes() {
    Map<String, Long> sizes = new TreeMap<>(provider.bookkeeping());
    sizes.put("scheduler.pendingTasks", (long) scheduler.pendingTasks());
    return sizes;
  }

  @Override
  public void close() throws Exception {
    mailbox.stop(false);
    scheduler.close();
    resources.close();
  }
}
