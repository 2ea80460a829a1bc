package io.mailbox.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.jdbc.JdbcProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code jdbc:} post throughput, three ways side by side in one run against the same table:
 *
 * <ol>
 *   <li><b>per-post</b>: the provider with group commit off, one transaction per post, from T
 *       threads;
 *   <li><b>one caller, per post</b>: the same, from one caller awaiting each post in turn (the
 *       reference's "two, as asked"): the baseline of "issued together";
 *   <li><b>group commit</b>: the provider as shipped, concurrent posts sharing transactions;
 *   <li><b>issued together</b>: the provider as shipped, one caller posting T messages per {@code
 *       postAll} call (the reference's {@code Promise.all} of T enqueues), awaiting each call;
 *   <li><b>raw batched</b>: plain JDBC batched inserts of rows of the same shape, 500 per commit
 *       (the limit: no provider, no per-post wait).
 * </ol>
 *
 * <p>Each provider round posts N messages from T threads (each post returns only after its row
 * committed). Prints posts per second per round, the median, and the ratios group/per-post and
 * group/raw. Arguments: {@code [jdbcUrl] [posts] [threads] [rounds]} (default: a {@code
 * mailbox_bench} database on the local PostgreSQL, created when missing; 8000; 64; 3). The table
 * {@code MBX_QUEUE} in that database is dropped and recreated.
 */
public final class JdbcPostBenchmark {
  private static final MailAddress TARGET = MailAddress.parse("jdbc:bench@post/queue");
  private static final String BODY = "{\"orderId\":\"o-1\",\"quantity\":1,\"note\":\"benchmark\"}";

  private JdbcPostBenchmark() {}

  public static void main(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : ownPostgresDatabase();
    int posts = args.length > 1 ? Integer.parseInt(args[1]) : 8000;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;

    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername(url.contains(":h2:") ? "sa" : url.contains("mariadb") ? "root" : "postgres");
    config.setMaximumPoolSize(threads + 2);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      dropQueueTables(pool);
      MailboxProvider perPost =
          MailboxProvider.of(
              new JdbcProvider(pool, Clock.systemUTC(), new ExecutorScheduler(), true)
                  .withGroupCommit(false));
      MailboxProvider grouped =
          MailboxProvider.of(
              new JdbcProvider(pool, Clock.systemUTC(), new ExecutorScheduler(), true));
      perPost.start();
      grouped.start();

      System.out.printf(
          "jdbc: posts on %s, %d posts per round from %d threads%n", url, posts, threads);
      // Two untimed warm-up rounds of each path (JIT, pool, table pages).
      for (int warmUp = 0; warmUp < 2; warmUp++) {
        post(perPost, posts, threads, pool);
        post(perPost, posts, 1, pool);
        post(grouped, posts, threads, pool);
        postTogether(grouped, posts, threads, pool);
        rawBatched(pool, posts);
      }

      double[] perPostRates = new double[rounds];
      double[] groupedRates = new double[rounds];
      double[] togetherRates = new double[rounds];
      double[] oneCallerRates = new double[rounds];
      double[] rawRates = new double[rounds];
      for (int round = 0; round < rounds; round++) {
        perPostRates[round] = post(perPost, posts, threads, pool);
        oneCallerRates[round] = post(perPost, posts, 1, pool);
        groupedRates[round] = post(grouped, posts, threads, pool);
        togetherRates[round] = postTogether(grouped, posts, threads, pool);
        rawRates[round] = rawBatched(pool, posts);
        System.out.printf(
            "round %d: per-post %,.0f/s   one caller per post %,.0f/s   group commit %,.0f/s"
                + "   issued together %,.0f/s   raw batched %,.0f/s%n",
            round + 1,
            perPostRates[round],
            oneCallerRates[round],
            groupedRates[round],
            togetherRates[round],
            rawRates[round]);
      }
      double perPostMedian = OutboxBench.median(perPostRates);
      double groupedMedian = OutboxBench.median(groupedRates);
      double togetherMedian = OutboxBench.median(togetherRates);
      double oneCallerMedian = OutboxBench.median(oneCallerRates);
      double rawMedian = OutboxBench.median(rawRates);
      var stats = grouped.status(TARGET).extensions();
      System.out.printf(
          "median: per-post %,.0f/s   one caller per post %,.0f/s   group commit %,.0f/s"
              + "   issued together %,.0f/s   raw batched %,.0f/s%n",
          perPostMedian, oneCallerMedian, groupedMedian, togetherMedian, rawMedian);
      System.out.printf(
          "group commit wrote %s rows in %s transactions, %s ms inside them%n",
          stats.get("jdbc.groupCommit.rows"),
          stats.get("jdbc.groupCommit.batches"),
          stats.get("jdbc.groupCommit.writeMillis"));
      System.out.printf(
          "ratio group commit / per-post = %.2f (target >= 4.9)%n", groupedMedian / perPostMedian);
      System.out.printf(
          "ratio group commit / raw batched = %.2f (target >= 0.5)%n", groupedMedian / rawMedian);
      System.out.printf(
          "ratio issued together / per-post from %d threads = %.2f%n",
          threads, togetherMedian / perPostMedian);
      System.out.printf(
          "ratio issued together / one caller per post = %.2f (target >= 4.9)%n",
          togetherMedian / oneCallerMedian);
      System.out.printf(
          "ratio issued together / raw batched = %.2f (target >= 0.5)%n",
          togetherMedian / rawMedian);
      perPost.stop(false);
      grouped.stop(false);
    }
  }

  /** Posts {@code count} messages from {@code threads} threads; returns posts per second. */
  private static double post(
      MailboxProvider provider, int count, int threads, HikariDataSource pool) throws Exception {
    empty(pool);
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> posters = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int share = count / threads + (t < count % threads ? 1 : 0);
      posters.add(
          executor.submit(
              () -> {
                start.await();
                for (int i = 0; i < share; i++) {
                  provider.post(
                      MailMessage.to(TARGET).id(UUID.randomUUID().toString()).body(BODY).build());
                }
                return null;
              }));
    }
    long began = System.nanoTime();
    start.countDown();
    for (Future<?> poster : posters) {
      poster.get();
    }
    long elapsed = System.nanoTime() - began;
    executor.shutdown();
    return count / (elapsed / 1e9);
  }

  /**
   * One caller posting {@code together} messages per {@code postAll} call, each call returning only
   * after its rows committed; returns posts per second.
   */
  private static double postTogether(
      MailboxProvider provider, int count, int together, HikariDataSource pool)
      throws SQLException {
    empty(pool);
    long began = System.nanoTime();
    for (int sent = 0; sent < count; sent += together) {
      List<MailMessage> call = new ArrayList<>(together);
      for (int i = 0; i < Math.min(together, count - sent); i++) {
        call.add(MailMessage.to(TARGET).id(UUID.randomUUID().toString()).body(BODY).build());
      }
      provider.postAll(call);
    }
    return count / ((System.nanoTime() - began) / 1e9);
  }

  /** The limit: the same rows inserted with JDBC batches of 500, one commit per batch. */
  private static double rawBatched(HikariDataSource pool, int count) throws SQLException {
    empty(pool);
    String message =
        "{\"id\":\"x\",\"to\":\"" + TARGET + "\",\"headers\":{},\"body\":" + BODY + "}";
    long began = System.nanoTime();
    try (Connection c = pool.getConnection();
        PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO MBX_QUEUE (COPY_KEY, ADDRESS_HASH, ADDRESS, SEQ, MESSAGE_ID, MESSAGE,"
                    + " STATE, LEASE_ID, VISIBLE_AT, DELIVERIES, UPDATED_AT)"
                    + " VALUES (?, ?, ?, ?, ?, ?, 'READY', NULL, 0, 0, ?)")) {
      c.setAutoCommit(false);
      long now = System.currentTimeMillis();
      for (int i = 0; i < count; i++) {
        String id = UUID.randomUUID().toString();
        insert.setString(1, id);
        insert.setString(2, "0".repeat(64));
        insert.setString(3, TARGET.toString());
        insert.setLong(4, now * 1000 + i);
        insert.setString(5, id);
        insert.setString(6, message);
        insert.setLong(7, now);
        insert.addBatch();
        if ((i + 1) % 500 == 0 || i == count - 1) {
          insert.executeBatch();
          c.commit();
        }
      }
      c.setAutoCommit(true);
    }
    return count / ((System.nanoTime() - began) / 1e9);
  }

  /** A database of its own on the local PostgreSQL, so a run never touches the test tables. */
  private static String ownPostgresDatabase() throws SQLException {
    try (Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:5432/postgres", "postgres", "");
        Statement statement = c.createStatement()) {
      var exists =
          statement.executeQuery("SELECT 1 FROM pg_database WHERE datname = 'mailbox_bench'");
      if (!exists.next()) {
        statement.execute("CREATE DATABASE mailbox_bench");
      }
    }
    return "jdbc:postgresql://127.0.0.1:5432/mailbox_bench";
  }

  private static void dropQueueTables(HikariDataSource pool) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement statement = c.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS MBX_QUEUE");
      statement.execute("DROP TABLE IF EXISTS MBX_QUEUE_SEEN");
    }
  }

  private static void empty(HikariDataSource pool) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement statement = c.createStatement()) {
      statement.execute("DELETE FROM MBX_QUEUE");
    }
  }
}
