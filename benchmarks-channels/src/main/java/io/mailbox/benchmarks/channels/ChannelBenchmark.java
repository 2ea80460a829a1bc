package io.mailbox.benchmarks.channels;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import io.smallrye.reactive.messaging.memory.InMemorySource;
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
 * Issue 21, item 1, in memory: messages per second through the same Reactive Messaging pipeline
 * ({@link Pipelines}) read through our {@code mailbox} connector from a {@code mem:} address and
 * through SmallRye's in-memory connector, in one Weld SE process with SmallRye Reactive Messaging,
 * rounds alternating which goes first. Arguments: {@code [messages] [rounds] [max-in-flight]
 * [poll-interval ms]} (default 20000 7 16 100: the channel's defaults). Prints each round, the
 * medians and the ratio ours / SmallRye.
 */
public final class ChannelBenchmark {
  private static final MailAddress IN = MailAddress.parse("mem:bench@channels/orders");

  private ChannelBenchmark() {}

  public static void main(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    String maxInFlight = args.length > 2 ? args[2] : "16";
    String pollInterval = args.length > 3 ? args[3] : "100";
    int warmups = 2;

    Mailbox kernel = new Mailbox();
    kernel.register(MailboxProvider.of(MemoryProvider.isolated()));
    kernel.start();
    ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    System.setProperty("java.naming.factory.initial", BenchNaming.class.getName());
    BenchNaming.bind("mailbox/ConnectionFactory", new KernelConnections(kernel));
    BenchNaming.bind("java:comp/DefaultManagedScheduledExecutorService", executor);
    System.setProperty("mp.messaging.incoming.mailbox-in.connector", "mailbox");
    System.setProperty("mp.messaging.incoming.mailbox-in.address", IN.toString());
    System.setProperty("mp.messaging.incoming.mailbox-in.max-in-flight", maxInFlight);
    System.setProperty("mp.messaging.incoming.mailbox-in.poll-interval", pollInterval);
    System.setProperty("mp.messaging.incoming.smallrye-in.connector", InMemoryConnector.CONNECTOR);

    try (WeldContainer container = new Weld().initialize()) {
      container.select(Pipelines.class).get().toString(); // the pipelines are running
      InMemorySource<String> source =
          container
              .select(InMemoryConnector.class, jakarta.enterprise.inject.Any.Literal.INSTANCE)
              .get()
              .source("smallrye-in");
      List<Double> ours = new ArrayList<>();
      List<Double> theirs = new ArrayList<>();
      for (int round = 1; round <= warmups + rounds; round++) {
        boolean oursFirst = round % 2 == 1;
        double a = oursFirst ? mailbox(kernel, Pipelines.MAILBOX_RECEIVED, messages) : 0;
        double b = smallRye(source, Pipelines.SMALLRYE_RECEIVED, messages);
        if (!oursFirst) {
          a = mailbox(kernel, Pipelines.MAILBOX_RECEIVED, messages);
        }
        String label = round <= warmups ? "warm-up " + round : "round " + (round - warmups);
        System.out.printf(
            Locale.ROOT,
            "%s: mailbox connector on mem: %,.0f msg/s   SmallRye in-memory %,.0f msg/s   ours/SmallRye %.2f%n",
            label,
            a,
            b,
            a / b);
        if (round > warmups) {
          ours.add(a);
          theirs.add(b);
        }
      }
      double oursMedian = median(ours);
      double theirsMedian = median(theirs);
      System.out.printf(
          Locale.ROOT,
          "median: mailbox connector %,.0f msg/s   SmallRye in-memory %,.0f msg/s%n"
              + "ratio ours / SmallRye in-memory = %.2f (target >= 1.0); %d messages a round,"
              + " max-in-flight %s, poll-interval %s ms%n",
          oursMedian,
          theirsMedian,
          oursMedian / theirsMedian,
          messages,
          maxInFlight,
          pollInterval);
    } finally {
      kernel.stop(true);
      executor.shutdownNow();
    }
  }

  /** Posts {@code messages} to the channel's address; the rate until the sink acked them all. */
  private static double mailbox(Mailbox kernel, AtomicLong received, int messages)
      throws InterruptedException {
    long start = received.get();
    long began = System.nanoTime();
    for (int i = 0; i < messages; i++) {
      kernel.post(MailMessage.to(IN).id("order-" + i).body("{\"order\":" + i + "}").build());
    }
    awaitCount(received, start + messages, "mailbox");
    return messages / ((System.nanoTime() - began) / 1e9);
  }

  /** Sends {@code messages} to SmallRye's in-memory source; the rate until the sink acked them. */
  private static double smallRye(InMemorySource<String> source, AtomicLong received, int messages)
      throws InterruptedException {
    long start = received.get();
    long began = System.nanoTime();
    for (int i = 0; i < messages; i++) {
      source.send("{\"order\":" + i + "}");
    }
    awaitCount(received, start + messages, "SmallRye");
    return messages / ((System.nanoTime() - began) / 1e9);
  }

  private static void awaitCount(AtomicLong received, long wanted, String side)
      throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (received.get() < wanted) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            side + ": " + received.get() + " of " + wanted + " received within 120 s");
      }
      Thread.sleep(1);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
