package io.mailbox.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;

/**
 * A fetching channel on a provider that signals arrivals ({@code mem:}): after an empty fetch it
 * arms one signal and takes the next post at once, not at the next poll; it leaves at most one
 * timer behind however many lulls it meets; a cancel drops its signal; without the capability it
 * polls as before. The provider's side is {@code ArrivalSignalContract}.
 */
class MailboxPublisherArrivalTest {
  private static final MailAddress ORDERS = MailAddress.parse("mem:orders@shop/placed");
  private static final Duration NEVER_POLLS = Duration.ofMinutes(10);

  private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2);
  private final Queue<Delivery> queued = new ConcurrentLinkedQueue<>();
  private final AtomicReference<Runnable> armed = new AtomicReference<>();
  private final AtomicInteger armings = new AtomicInteger();
  private final AtomicInteger cancels = new AtomicInteger();
  private final AtomicInteger fetches = new AtomicInteger();
  private final AtomicBoolean providerSignals = new AtomicBoolean(true);
  private final List<Message<?>> received = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void aPostInALullIsTakenAtOnceAndTheLullsLeaveNoTimersBehind() {
    subscribe(NEVER_POLLS);
    waitUntil(() -> armed.get() != null);

    for (int lull = 1; lull <= 50; lull++) {
      post("copy-" + lull);
      int expected = lull;
      waitUntil(() -> received.size() == expected);
      received.get(lull - 1).ack();
      waitUntil(() -> armed.get() != null); // the channel waits again
    }

    assertThat(armings).as("one arming per lull (and the first)").hasValue(51);
    assertThat(fetches.get()).as("no poll storm").isLessThanOrEqualTo(3 * 51);
    // One poll timer and the overdue watch once the last wake-up ran; a timer per lull (51) never
    // drains below that within the 10 minutes they wait.
    waitUntil(() -> executor.getQueue().size() <= 2);
  }

  @Test
  void aHandlerNotReadyYetGetsItsMessageAgainAfterThePauseNotAtTheNextPoll() {
    subscribe(
        NEVER_POLLS,
        message -> {
          received.add(message);
          if (received.size() == 1) { // a server still starting: the bean is not there yet
            message.nack(
                new IllegalStateException(
                    new jakarta.ejb.EJBException(
                        "Attempt to invoke when container is in Initializing")));
          } else {
            message.ack();
          }
        });
    waitUntil(() -> armed.get() != null); // a 10-minute poll timer is pending now

    post("early");

    waitUntil(() -> received.size() == 2); // after the 1 s pause, not the poll's 10 minutes
    assertThat(received.get(1).unwrap(Delivery.class).key()).isEqualTo("early");
  }

  @Test
  void aCancelledChannelDropsItsSignalAndTakesNothingMore() {
    AtomicReference<Subscription> subscription = subscribe(NEVER_POLLS);
    waitUntil(() -> armed.get() != null);

    subscription.get().cancel();

    assertThat(cancels).hasValue(1);
    post("after-the-cancel");
    sleep(300);
    assertThat(received).isEmpty();
  }

  @Test
  void withoutTheCapabilityTheChannelPollsAndNeverArms() {
    providerSignals.set(false);
    subscribe(Duration.ofMillis(20));
    waitUntil(() -> fetches.get() > 2);

    queued.add(delivery("polled"));

    waitUntil(() -> received.size() == 1);
    assertThat(armings).hasValue(0);
  }

  /** The provider's side: queue the copy, then give the armed signal, as the post does. */
  private void post(String key) {
    queued.add(delivery(key));
    Runnable signal = armed.getAndSet(null);
    if (signal != null) {
      signal.run();
    }
  }

  private AtomicReference<Subscription> subscribe(Duration pollInterval) {
    return subscribe(pollInterval, received::add);
  }

  private AtomicReference<Subscription> subscribe(
      Duration pollInterval, java.util.function.Consumer<Message<?>> onNext) {
    ChannelSettings settings =
        new ChannelSettings(
            "placed-orders",
            ORDERS,
            "mailbox/ConnectionFactory",
            Duration.ofSeconds(30),
            4,
            3,
            Duration.ZERO,
            Duration.ZERO,
            pollInterval,
            Optional.empty(),
            ChannelSettings.Delivery.FETCH);
    MailboxConnectionFactory factory = FakeConnections.factory(connection());
    AtomicReference<Subscription> subscription = new AtomicReference<>();
    new MailboxPublisher(settings, () -> factory, executor, () -> false)
        .subscribe(
            FakeConnections.subscriber(
                s -> {
                  subscription.set(s);
                  s.request(Long.MAX_VALUE);
                },
                onNext));
    return subscription;
  }

  private MailboxConnection connection() {
    return FakeConnections.connection(
        Map.of(
            "fetch",
            args -> {
              fetches.incrementAndGet();
              int limit = ((FetchOptions) args[1]).limit();
              List<Delivery> taken = new ArrayList<>();
              Delivery next;
              while (taken.size() < limit && (next = queued.poll()) != null) {
                taken.add(next);
              }
              return taken;
            },
            "can",
            args -> Capabilities.ARRIVAL_SIGNAL.equals(args[0]) && providerSignals.get(),
            "onNextArrival",
            args -> {
              armings.incrementAndGet();
              Runnable signal = (Runnable) args[1];
              if (!queued.isEmpty()) {
                signal.run();
                return (Runnable) () -> {};
              }
              armed.set(signal);
              return (Runnable)
                  () -> {
                    cancels.incrementAndGet();
                    armed.compareAndSet(signal, null);
                  };
            }));
  }

  private static Delivery delivery(String key) {
    return new FakeDelivery(ORDERS, key, disposition -> true);
  }

  private static void waitUntil(BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("within 5 s").isLessThan(deadline);
      sleep(2);
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
