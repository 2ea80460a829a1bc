package io.mailbox.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An incoming channel's slots: max-in-flight holds, and a lost settlement never stops it. */
class MailboxPublisherTest {
  private static final MailAddress PLACED = MailAddress.parse("jdbc:orders@shop/placed");

  private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
  private final ConcurrentLinkedQueue<Delivery> queued = new ConcurrentLinkedQueue<>();
  private final AtomicInteger failingFetches = new AtomicInteger();
  private final List<Message<?>> received = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void messagesNeverSettledHoldTheirSlotsOnlyUntilLongAfterTheirLease() {
    for (int i = 0; i < 5; i++) {
      queued.add(delivery("copy-" + i));
    }
    subscribe(channel(Duration.ofMillis(200), 2));

    waitUntil(Duration.ofSeconds(2), () -> received.size() == 2);
    sleep(300);
    assertThat(received).as("max-in-flight holds while the leases run").hasSize(2);

    // Nobody acks: after twice the lease plus the lease again the slots are freed, once — a
    // handler stuck that long has its messages out of the limit, but at most max-in-flight of them,
    // so stuck handlers cannot turn the limit into a rate.
    waitUntil(Duration.ofSeconds(3), () -> received.size() == 4);
    sleep(1_500);
    assertThat(received).as("2 in flight + 2 orphaned, no new batch every period").hasSize(4);
  }

  @Test
  void acksRacingTheEndOfADrainNeverStopTheChannel() throws Exception {
    int count = 3_000;
    for (int i = 0; i < count; i++) {
      queued.add(delivery("copy-" + i));
    }
    java.util.concurrent.ExecutorService ackers = Executors.newFixedThreadPool(4);
    try {
      subscribe(
          channel(Duration.ofSeconds(30), 1),
          message -> {
            received.add(message);
            ackers.execute(() -> message.ack()); // the ack lands on another thread
          });

      waitUntil(Duration.ofSeconds(30), () -> received.size() == count);
    } finally {
      ackers.shutdownNow();
    }
  }

  @Test
  void anAckTheStoreCannotTakeLetsTheChannelGoOn() {
    for (int i = 0; i < 5; i++) {
      queued.add(failingToSettle("copy-" + i));
    }
    subscribe(channel(Duration.ofSeconds(30), 1));

    for (int i = 1; i <= 5; i++) {
      int expected = i;
      waitUntil(Duration.ofSeconds(2), () -> received.size() == expected);
      received.get(i - 1).ack().toCompletableFuture().join();
    }
  }

  private ChannelSettings channel(Duration lease, int maxInFlight) {
    return new ChannelSettings(
        "placed-orders",
        PLACED,
        "mailbox/ConnectionFactory",
        lease,
        maxInFlight,
        3,
        Duration.ZERO,
        Duration.ZERO,
        Duration.ofMillis(20),
        Optional.empty(),
        ChannelSettings.Delivery.FETCH);
  }

  @Test
  void anOutageIsLoggedOnceAtWarningItsRepeatsQuietlyAndItsEndAtInfo() {
    List<LogRecord> logged = Collections.synchronizedList(new ArrayList<>());
    Logger log = Logger.getLogger(MailboxPublisher.class.getName());
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Level before = log.getLevel();
    log.setLevel(Level.ALL);
    log.addHandler(capture);
    try {
      failingFetches.set(20);
      queued.add(delivery("after-the-outage"));
      subscribe(channel(Duration.ofSeconds(30), 4));

      waitUntil(Duration.ofSeconds(5), () -> received.size() == 1);
      assertThat(failingFetches.get()).isZero();
      List<Level> levels = logged.stream().map(LogRecord::getLevel).toList();
      assertThat(levels).filteredOn(Level.WARNING::equals).hasSize(1);
      assertThat(levels).filteredOn(Level.FINE::equals).hasSize(19);
      assertThat(levels).filteredOn(Level.INFO::equals).hasSize(1);
    } finally {
      log.removeHandler(capture);
      log.setLevel(before);
    }
  }

  private void subscribe(ChannelSettings settings) {
    subscribe(settings, received::add);
  }

  private void subscribe(ChannelSettings settings, Consumer<Message<?>> onNext) {
    MailboxConnectionFactory factory = FakeConnections.factory(connection());
    new MailboxPublisher(settings, () -> factory, executor, () -> false)
        .subscribe(FakeConnections.subscriber(s -> s.request(Long.MAX_VALUE), onNext));
  }

  /** A connection whose fetch takes from {@link #queued}; nothing else is used. */
  private MailboxConnection connection() {
    return FakeConnections.connection(
        java.util.Map.of(
            "fetch",
            args -> {
              if (failingFetches.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("MBX-2003 the broker is away");
              }
              int limit = ((io.mailbox.connector.api.FetchOptions) args[1]).limit();
              List<Delivery> taken = new ArrayList<>();
              Delivery next;
              while (taken.size() < limit && (next = queued.poll()) != null) {
                taken.add(next);
              }
              return taken;
            }));
  }

  private static Delivery delivery(String key) {
    return delivery(key, false);
  }

  private static Delivery failingToSettle(String key) {
    return delivery(key, true);
  }

  private static Delivery delivery(String key, boolean settleFails) {
    return new FakeDelivery(
        PLACED,
        key,
        disposition -> {
          if (settleFails) {
            throw new IllegalStateException("connection refused");
          }
          return true;
        });
  }

  private static void waitUntil(Duration bound, java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within " + bound).isLessThan(deadline);
      sleep(10);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
