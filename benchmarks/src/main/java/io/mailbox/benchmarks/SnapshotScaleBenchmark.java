package io.mailbox.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.jdbc.JdbcProvider;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The status snapshot at scale (issue 21, item 5): {@code Mailbox.snapshot()} over 1,000 and over
 * 10,000 addresses (one message queued at each), side by side in one run, on {@code mem:} and on
 * {@code jdbc:} over the embedded H2 database the quick start uses (a file in a temporary folder,
 * {@code WRITE_DELAY=0}). Each snapshot is timed {@code rounds} times, the sizes alternating;
 * prints the medians and the ratio 10,000 / 1,000 (target: at most 12). Arguments: {@code [small]
 * [large] [rounds]}.
 */
public final class SnapshotScaleBenchmark {
  private SnapshotScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    int small = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
    int large = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 9;
    Path folder = Files.createTempDirectory("mailbox-snapshot-bench");
    List<HikariDataSource> pools = new ArrayList<>();
    try {
      measure("mem", () -> MailboxProvider.of(MemoryProvider.isolated()), small, large, rounds);
      measure(
          "jdbc (H2 file)",
          () -> {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(
                "jdbc:h2:"
                    + folder.resolve("db-" + pools.size()).toAbsolutePath()
                    + ";WRITE_DELAY=0;MODE=LEGACY");
            config.setUsername("sa");
            config.setMaximumPoolSize(4);
            HikariDataSource pool = new HikariDataSource(config);
            pools.add(pool);
            return MailboxProvider.of(
                new JdbcProvider(pool, Clock.systemUTC(), new ExecutorScheduler(), true));
          },
          small,
          large,
          rounds);
    } finally {
      pools.forEach(HikariDataSource::close);
    }
  }

  private static void measure(
      String name, Supplier<MailboxProvider> providers, int small, int large, int rounds) {
    Mailbox few = filled(providers.get(), small);
    Mailbox many = filled(providers.get(), large);
    few.snapshot(); // warm-up
    many.snapshot();
    double[] fewMillis = new double[rounds];
    double[] manyMillis = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      if (round % 2 == 0) {
        fewMillis[round] = timed(few, small);
        manyMillis[round] = timed(many, large);
      } else {
        manyMillis[round] = timed(many, large);
        fewMillis[round] = timed(few, small);
      }
    }
    double fewMedian = OutboxBench.median(fewMillis);
    double manyMedian = OutboxBench.median(manyMillis);
    System.out.printf(
        "%s: snapshot of %,d addresses %.1f ms (%.1f-%.1f), of %,d addresses %.1f ms (%.1f-%.1f);"
            + " ratio %.2f for %.0fx the addresses (target <= 12)%n",
        name,
        small,
        fewMedian,
        min(fewMillis),
        max(fewMillis),
        large,
        manyMedian,
        min(manyMillis),
        max(manyMillis),
        manyMedian / fewMedian,
        (double) large / small);
    few.stop(false);
    many.stop(false);
  }

  private static Mailbox filled(MailboxProvider provider, int addresses) {
    Mailbox mailbox = new Mailbox().register(provider);
    mailbox.start();
    String scheme = provider.scheme();
    for (int from = 0; from < addresses; from += 500) {
      List<MailMessage> batch = new ArrayList<>(500);
      for (int i = from; i < Math.min(from + 500, addresses); i++) {
        batch.add(
            MailMessage.to(MailAddress.parse(scheme + ":shop@bench/queue-" + i))
                .id("m-" + i)
                .body("{}")
                .build());
      }
      provider.postAll(batch);
    }
    return mailbox;
  }

  private static double timed(Mailbox mailbox, int expected) {
    long began = System.nanoTime();
    Snapshot snapshot = mailbox.snapshot();
    double millis = (System.nanoTime() - began) / 1e6;
    if (snapshot.addresses().size() != expected) {
      throw new IllegalStateException(
          "listed " + snapshot.addresses().size() + " addresses, expected " + expected);
    }
    return millis;
  }

  private static double min(double[] values) {
    return java.util.Arrays.stream(values).min().orElse(0);
  }

  private static double max(double[] values) {
    return java.util.Arrays.stream(values).max().orElse(0);
  }
}
