package io.mailbox.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.jdbc.JdbcProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@code jdbc:} with a shallow and a deep queue on PostgreSQL, side by side in one run: two
 * schemas, one address each, kept at {@code shallow} (default 1,000) and {@code deep} (default
 * 1,000,000) queued copies. Each round, on each (the order alternates): {@code ops} posts from one
 * caller, each waiting for its commit, then leased fetches of 10 acknowledged one by one until
 * {@code ops} were taken (the depth stays where it was). Prints the rates, the medians, the ratios
 * shallow/deep (target: at most 2), and the plans of the take query on the deep queue, the shipped
 * one and the single {@code OR} query it replaced. Arguments: {@code [shallow] [deep] [ops]
 * [rounds]}.
 */
public final class JdbcDeepQueueBenchmark {
  private static final String BODY = "{\"orderId\":\"o-1\",\"quantity\":1,\"note\":\"benchmark\"}";

  private JdbcDeepQueueBenchmark() {}

  /** One schema, one address, one provider. */
  private record Queue(String name, HikariDataSource pool, MailboxProvider provider, MailAddress to)
      implements AutoCloseable {
    @Override
    public void close() {
      provider.stop(false);
      pool.close();
    }
  }

  public static void main(String[] args) throws Exception {
    int shallow = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
    int deep = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
    int ops = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    String url = "jdbc:postgresql://127.0.0.1:5432/";
    try (Queue small = open(url, "mailbox_bench_shallow", shallow);
        Queue large = open(url, "mailbox_bench_deep", deep)) {
      System.out.printf(
          "jdbc: deep queue on %s: %,d vs %,d copies queued, %,d posts and %,d leased takes per"
              + " round%n",
          url, shallow, deep, ops, ops);
      // Warm-up (JIT, pool, plans), untimed.
      post(small, ops / 4);
      take(small, ops / 4);
      post(large, ops / 4);
      take(large, ops / 4);
      double[][] rates = new double[4][rounds];
      for (int round = 0; round < rounds; round++) {
        Queue first = round % 2 == 0 ? small : large;
        Queue second = first == small ? large : small;
        for (Queue queue : List.of(first, second)) {
          int column = queue == small ? 0 : 2;
          rates[column][round] = post(queue, ops);
          rates[column + 1][round] = take(queue, ops);
        }
        System.out.printf(
            "round %d: shallow post %,.0f/s take %,.0f/s   deep post %,.0f/s take %,.0f/s%n",
            round + 1, rates[0][round], rates[1][round], rates[2][round], rates[3][round]);
      }
      double[] medians = new double[4];
      for (int i = 0; i < 4; i++) {
        medians[i] = OutboxBench.median(rates[i]);
      }
      System.out.printf(
          "median: shallow post %,.0f/s take %,.0f/s   deep post %,.0f/s take %,.0f/s%n",
          medians[0], medians[1], medians[2], medians[3]);
      System.out.printf(
          "ratio shallow/deep: post %.2f, leased take %.2f (target <= 2)%n",
          medians[0] / medians[2], medians[1] / medians[3]);
      printPlans(large);
    }
  }

  private static Queue open(String server, String database, int depth) throws Exception {
    // A database each (the provider finds its table by name, whatever the schema).
    try (Connection c = java.sql.DriverManager.getConnection(server + "postgres", "postgres", "");
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + database);
      s.execute("CREATE DATABASE " + database);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(server + database);
    config.setUsername("postgres");
    config.setMaximumPoolSize(8);
    HikariDataSource pool = new HikariDataSource(config);
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(pool, Clock.systemUTC(), new ExecutorScheduler(), true));
    provider.start();
    MailAddress to = MailAddress.parse("jdbc:bench@" + database.replace('_', '-') + "/queue");
    long began = System.nanoTime();
    for (int queued = 0; queued < depth; queued += 500) {
      List<MailMessage> batch = new ArrayList<>(500);
      for (int i = 0; i < Math.min(500, depth - queued); i++) {
        batch.add(message(to));
      }
      provider.postAll(batch);
    }
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute("ANALYZE MBX_QUEUE");
    }
    System.out.printf(
        "%s: %,d copies queued in %.1f s%n", database, depth, (System.nanoTime() - began) / 1e9);
    return new Queue(database, pool, provider, to);
  }

  private static MailMessage message(MailAddress to) {
    return MailMessage.to(to).id(UUID.randomUUID().toString()).body(BODY).build();
  }

  /** {@code count} posts from one caller; posts per second. */
  private static double post(Queue queue, int count) {
    long began = System.nanoTime();
    for (int i = 0; i < count; i++) {
      queue.provider().post(message(queue.to()));
    }
    return count / ((System.nanoTime() - began) / 1e9);
  }

  /** Leased fetches of 10, each acknowledged, until {@code count} were taken; per second. */
  private static double take(Queue queue, int count) {
    FetchOptions leased = new FetchOptions(10, true, Duration.ofSeconds(60), false);
    long began = System.nanoTime();
    int taken = 0;
    while (taken < count) {
      List<Delivery> deliveries = queue.provider().fetch(queue.to(), leased);
      if (deliveries.isEmpty()) {
        throw new IllegalStateException(queue.name() + ": the queue ran dry");
      }
      for (Delivery delivery : deliveries) {
        delivery.settle(Disposition.HANDLED);
      }
      taken += deliveries.size();
    }
    return taken / ((System.nanoTime() - began) / 1e9);
  }

  /** EXPLAIN ANALYZE of the take's candidates query, as shipped and as it was. */
  private static void printPlans(Queue deep) throws SQLException {
    String now = Long.toString(System.currentTimeMillis());
    try (Connection c = deep.pool().getConnection();
        Statement s = c.createStatement()) {
      String hash;
      try (ResultSet any = s.executeQuery("SELECT ADDRESS_HASH FROM MBX_QUEUE LIMIT 1")) {
        any.next();
        hash = "'" + any.getString(1) + "'";
      }
      String shipped =
          "(SELECT COPY_KEY, MESSAGE, DELIVERIES, SEQ FROM MBX_QUEUE WHERE ADDRESS_HASH = "
              + hash
              + " AND STATE = 'READY' ORDER BY SEQ LIMIT 28) UNION ALL (SELECT COPY_KEY,"
              + " MESSAGE, DELIVERIES, SEQ FROM MBX_QUEUE WHERE ADDRESS_HASH = "
              + hash
              + " AND STATE = 'LEASED' AND VISIBLE_AT <= "
              + now
              + " ORDER BY SEQ LIMIT 28) ORDER BY SEQ";
      String before =
          "SELECT COPY_KEY, MESSAGE, DELIVERIES FROM MBX_QUEUE WHERE ADDRESS_HASH = "
              + hash
              + " AND (STATE = 'READY' OR (STATE = 'LEASED' AND VISIBLE_AT <= "
              + now
              + ")) ORDER BY SEQ LIMIT 28";
      for (String[] query :
          List.of(new String[] {"shipped", shipped}, new String[] {"before", before})) {
        System.out.println("plan (" + query[0] + "), deep queue:");
        try (ResultSet plan = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS) " + query[1])) {
          while (plan.next()) {
            System.out.println("  " + plan.getString(1));
          }
        }
      }
    }
  }
}
