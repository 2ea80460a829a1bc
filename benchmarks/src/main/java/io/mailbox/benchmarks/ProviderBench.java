package io.mailbox.benchmarks;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.kernel.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The provider's side of the broker benchmarks: posts in batches, and a counting subscriber. */
final class ProviderBench {
  /** The payload every broker benchmark sends: a typical small event. */
  static final String BODY =
      "{\"orderId\":\"o-1\",\"quantity\":1,\"note\":\"benchmark payload of a typical event\"}";

  /**
   * How long the last {@link #consume} waited for its first message (start-up: join, first fetch).
   */
  static volatile double firstRecordMillis;

  private ProviderBench() {}

  /** Posts {@code count} messages with {@code body} in {@code postAll} calls of {@code batch}. */
  static double publish(
      MailboxProvider provider, MailAddress address, int count, int batch, String body) {
    long start = System.nanoTime();
    for (int sent = 0; sent < count; ) {
      int n = Math.min(batch, count - sent);
      List<MailMessage> call = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        call.add(MailMessage.to(address).id("m-" + (sent + i)).body(body).build());
      }
      provider.postAll(call);
      sent += n;
    }
    return count / OutboxBench.seconds(start);
  }

  /** Subscribes and counts until {@code count} messages arrived; the rate, from the subscribe. */
  static double consume(MailboxProvider provider, MailAddress address, int count)
      throws InterruptedException {
    return consume(provider, address, count, false);
  }

  /**
   * As {@link #consume(MailboxProvider, MailAddress, int)}, the rate counted from the first message
   * when {@code fromFirstMessage}: for a raw side that is timed so too (a Kafka share group's start
   * takes seconds, which would swamp the reading being compared).
   */
  static double consume(
      MailboxProvider provider, MailAddress address, int count, boolean fromFirstMessage)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(count);
    AtomicLong first = new AtomicLong();
    long start = System.nanoTime();
    Subscription subscription =
        provider.subscribe(
            address,
            MailboxSubscriber.of(
                m -> {
                  first.compareAndSet(0, System.nanoTime());
                  done.countDown();
                }));
    if (!done.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("provider subscriber got " + (count - done.getCount()));
    }
    double rate = count / OutboxBench.seconds(fromFirstMessage ? first.get() : start);
    firstRecordMillis = (first.get() - start) / 1e6;
    subscription.unsubscribe();
    return rate;
  }

  /**
   * Untimed warm-up rounds before the measured ones: at least two, and enough for 50,000 messages
   * through each path. Two rounds of 10,000 left the provider's deeper delivery path still being
   * compiled in the first measured round (nats: 60,000/s in round 1, 130,000/s from round 3, while
   * a raw client's short loop was fast from the start), so the figure was the JIT's, not the steady
   * state a server reaches.
   */
  static int warmUpRounds(int messages) {
    return Math.max(2, (int) Math.ceil(50_000.0 / Math.max(1, messages)));
  }

  /** One timed side of a comparison. */
  @FunctionalInterface
  interface Side {
    double rate() throws Exception;
  }

  /**
   * Runs both sides, ours first in even rounds and raw first in odd ones; returns {ours, raw}.
   * Whoever goes first pays for what the broker still does from the round before: on NATS the
   * publish ratio measured 0.6 with ours always first and 1.3 with raw always first.
   */
  static double[] alternately(int round, Side ours, Side raw) throws Exception {
    if (Math.floorMod(round, 2) == 0) {
      double first = quietly(ours);
      return new double[] {first, quietly(raw)};
    }
    double first = quietly(raw);
    return new double[] {quietly(ours), first};
  }

  /**
   * A side timed after a short pause: the broker finishes what the step before left it (stores
   * written, acknowledgements applied) on its own time rather than on the next side's. Without it
   * the side going first measured up to half the rate of the same code going second (nats publish,
   * 10,000 messages: 47,000-52,000/s first, 64,000-97,000/s second).
   */
  private static double quietly(Side side) throws Exception {
    Thread.sleep(QUIET_MILLIS);
    return side.rate();
  }

  // -Dbench.quietMillis=N to try another pause (kafka publish: 1,500 ms changed nothing).
  private static final long QUIET_MILLIS = Long.getLong("bench.quietMillis", 250);

  /** A benchmark's body. */
  @FunctionalInterface
  interface Body {
    void run() throws Exception;
  }

  /**
   * Runs a broker benchmark and exits either way: threads of the clients (and Kafka's in-JVM
   * broker) would keep the JVM alive. A failure exits 1 with its trace, never as a silent success.
   */
  static void runThenExit(Body body) {
    try {
      body.run();
    } catch (Throwable failure) {
      failure.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }
}
