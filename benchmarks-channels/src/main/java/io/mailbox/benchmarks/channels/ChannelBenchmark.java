package io.mailbox.benchmarks.channels;

import io.mailbox.connector.kernel.Mailbox;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Issue 21, item 1: messages per second through the same Reactive Messaging pipeline ({@link
 * Pipelines}: connector → processor → sink that acks) read through our {@code mailbox} connector
 * and through SmallRye's own connector for the same broker, in one Weld SE process with SmallRye
 * Reactive Messaging; rounds alternate which side goes first, each timed from its first message put
 * in until its sink acked the last. Arguments: {@code [mem|amqp|kafka] [messages] [rounds]
 * [max-in-flight] [poll-interval ms] [auto|fetch|push]} (default mem 20000 7 16 100 auto: the
 * channel's defaults).
 */
public final class ChannelBenchmark {
  private ChannelBenchmark() {}

  public static void main(String[] args) throws Exception {
    String broker = args.length > 0 ? args[0] : "mem";
    int messages = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    String maxInFlight = args.length > 3 ? args[3] : "16";
    String pollInterval = args.length > 4 ? args[4] : "100";
    String delivery = args.length > 5 ? args[5] : "auto";
    // At least two warm-up rounds, and enough for 50,000 messages: the JIT is still compiling the
    // deeper path (ours) after two short rounds, and the figure would be its, not a server's.
    int warmups = Math.max(2, (int) Math.ceil(50_000.0 / Math.max(1, messages)));

    Mailbox kernel = new Mailbox();
    ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    System.setProperty("java.naming.factory.initial", BenchNaming.class.getName());
    BenchNaming.bind("mailbox/ConnectionFactory", new KernelConnections(kernel));
    BenchNaming.bind("java:comp/DefaultManagedScheduledExecutorService", executor);
    System.setProperty("mp.messaging.incoming.mailbox-in.connector", "mailbox");
    System.setProperty("mp.messaging.incoming.mailbox-in.max-in-flight", maxInFlight);
    System.setProperty("mp.messaging.incoming.mailbox-in.poll-interval", pollInterval);
    System.setProperty("mp.messaging.incoming.mailbox-in.delivery", delivery);
    try (Feed feed =
        switch (broker) {
          case "mem" -> new MemoryFeed();
          case "amqp" -> new RabbitMqFeed();
          case "kafka" -> new KafkaFeed();
          default ->
              throw new IllegalArgumentException("broker: mem, amqp or kafka, not " + broker);
        }) {
      feed.configure(kernel);
      kernel.start();
      try (WeldContainer container = new Weld().initialize()) {
        container.select(Pipelines.class).get().toString(); // the pipelines are running
        feed.started(container);
        List<Double> ours = new ArrayList<>();
        List<Double> theirs = new ArrayList<>();
        for (int round = 1; round <= warmups + rounds; round++) {
          boolean oursFirst = round % 2 == 1;
          double a = oursFirst ? ours(feed, messages) : 0;
          double b = theirs(feed, messages);
          if (!oursFirst) {
            a = ours(feed, messages);
          }
          System.out.printf(
              Locale.ROOT,
              "%s: %s %,.0f msg/s   %s %,.0f msg/s   ours/theirs %.2f%n",
              round <= warmups ? "warm-up " + round : "round " + (round - warmups),
              feed.ours(),
              a,
              feed.theirs(),
              b,
              a / b);
          if (round > warmups) {
            ours.add(a);
            theirs.add(b);
          }
        }
        System.out.printf(
            Locale.ROOT,
            "median: %s %,.0f msg/s   %s %,.0f msg/s%n"
                + "ratio ours / %s = %.2f (target >= 1.0); %d messages a round, max-in-flight %s,"
                + " poll-interval %s ms, delivery=%s%n",
            feed.ours(),
            median(ours),
            feed.theirs(),
            median(theirs),
            feed.theirs(),
            median(ours) / median(theirs),
            messages,
            maxInFlight,
            pollInterval,
            delivery);
      }
    } finally {
      kernel.stop(true);
      executor.shutdownNow();
    }
    System.exit(0); // the broker's and the connectors' threads would keep the JVM alive
  }

  static String order(int i) {
    return "{\"order\":" + i + "}";
  }

  private static double ours(Feed feed, int messages) throws Exception {
    return timed(() -> feed.feedOurs(messages), Pipelines.MAILBOX_RECEIVED, messages, "ours");
  }

  private static double theirs(Feed feed, int messages) throws Exception {
    return timed(() -> feed.feedTheirs(messages), Pipelines.SMALLRYE_RECEIVED, messages, "theirs");
  }

  private interface Work {
    void run() throws Exception;
  }

  /** Puts the messages in, then waits for the sink: the rate from the first in to the last out. */
  private static double timed(Work feed, AtomicLong received, int messages, String side)
      throws Exception {
    long wanted = received.get() + messages;
    long began = System.nanoTime();
    feed.run();
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (received.get() < wanted) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            side + ": " + received.get() + " of " + wanted + " received within 120 s");
      }
      Thread.sleep(1);
    }
    return messages / ((System.nanoTime() - began) / 1e9);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
