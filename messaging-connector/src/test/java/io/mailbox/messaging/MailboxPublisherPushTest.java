package io.mailbox.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.api.SystemHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;

/**
 * {@code delivery=push}: the channel subscribes once, hands what the transport pushes out only as
 * the demand allows, and each copy is settled through the stage it handed back — an ack completes
 * it, a nack fails it retriably (the transport hands the copy out again, round raised) or, at
 * max-attempts, for good (a dead letter); a cancel gives back what was pushed and not handed out.
 * The kernel's side (one attempt per hand-out, refused without a backlog hand-over) is in
 * MailboxTest; the whole path on RabbitMQ is {@code bin/bench channels amqp}.
 */
class MailboxPublisherPushTest {
  private static final MailAddress ORDERS = MailAddress.parse("amqp:orders@shop/pushed");

  private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
  private final List<Message<?>> received = new CopyOnWriteArrayList<>();
  private final AtomicReference<Subscription> subscription = new AtomicReference<>();
  private final AtomicReference<Function<MailMessage, CompletionStage<Void>>> pushTo =
      new AtomicReference<>();
  private final AtomicBoolean unsubscribed = new AtomicBoolean();
  private final AtomicInteger refusals = new AtomicInteger();
  private final AtomicBoolean canPushBacklog = new AtomicBoolean(true);
  private final java.util.Queue<io.mailbox.connector.api.Delivery> queued =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void pushedCopiesFollowTheDemandAndAreSettledByTheirMessagesAck() {
    subscribe(settings(3), 2);
    List<CompletableFuture<Void>> stages = push(5, 1);

    await(() -> received.size() == 2);
    sleep(200);
    assertThat(received).as("never more than requested").hasSize(2);
    assertThat(stages).noneMatch(CompletableFuture::isDone);
    received.forEach(message -> message.ack().toCompletableFuture().join());
    assertThat(stages.subList(0, 2)).allMatch(s -> s.isDone() && !s.isCompletedExceptionally());

    subscription.get().request(3);
    await(() -> received.size() == 5);
    assertThat(stages.subList(2, 5)).noneMatch(CompletableFuture::isDone);
  }

  @Test
  void aNackGoesBackRetriablyAndAtMaxAttemptsForGood() {
    subscribe(settings(2), 10);
    CompletableFuture<Void> firstRound = push(1, 1).get(0);
    CompletableFuture<Void> lastRound = push(1, 2).get(0);
    await(() -> received.size() == 2);

    received.get(0).nack(new RetriableDeliveryException("not now"));
    received.get(1).nack(new RetriableDeliveryException("still not"));

    await(() -> firstRound.isDone() && lastRound.isDone());
    assertThat(disposition(firstRound)).isEqualTo(Disposition.UNHANDLED);
    assertThat(disposition(lastRound))
        .as("round 2 of max-attempts 2")
        .isEqualTo(Disposition.DISCARD);
  }

  @Test
  void aCancelGivesBackWhatWasPushedAndNotHandedOut() {
    subscribe(settings(3), 1);
    List<CompletableFuture<Void>> stages = push(3, 1);
    await(() -> received.size() == 1);

    subscription.get().cancel();

    assertThat(unsubscribed).isTrue();
    assertThat(stages.subList(1, 3))
        .allSatisfy(s -> assertThat(disposition(s)).isEqualTo(Disposition.UNHANDLED));
    assertThat(disposition(push(1, 1).get(0)))
        .as("pushed after the cancel")
        .isEqualTo(Disposition.UNHANDLED);
    received.get(0).ack().toCompletableFuture().join();
    assertThat(stages.get(0)).isCompletedWithValue(null);
  }

  @Test
  void aRefusedSubscriptionIsTriedAgainEveryPollInterval() {
    refusals.set(3);
    subscribe(settings(3), 1);

    await(() -> pushTo.get() != null);
    assertThat(refusals).hasValue(0);
    push(1, 1);
    await(() -> received.size() == 1);
  }

  @Test
  void autoFetchesWhereTheProviderCannotHandItsBacklogToSubscribers() {
    canPushBacklog.set(false);
    queued.add(new FakeDelivery(ORDERS, "copy-1", d -> true));
    subscribe(settings(3, ChannelSettings.Delivery.AUTO), 1, false);

    await(() -> received.size() == 1);
    assertThat(pushTo.get()).as("never subscribed").isNull();
  }

  @Test
  void autoPushesWhereTheProviderHandsItsBacklogToSubscribers() {
    subscribe(settings(3, ChannelSettings.Delivery.AUTO), 1, true);
    push(1, 1);

    await(() -> received.size() == 1);
  }

  /**
   * A push arrives on the provider's thread; the drain it wakes must run in the application's
   * context (its configuration, {@code java:comp}), not the provider thread's: the wake-up goes
   * through the context the channel was deployed with.
   */
  @Test
  void aPushWakesTheChannelInTheApplicationsContext() {
    AtomicInteger inContext = new AtomicInteger();
    subscribe(
        settings(3),
        1,
        true,
        task -> {
          inContext.incrementAndGet();
          task.run();
        });
    Thread provider = new Thread(() -> push(1, 1), "a provider's thread");
    provider.start();

    await(() -> received.size() == 1);
    assertThat(inContext.get()).isPositive();
  }

  private static Disposition disposition(CompletableFuture<Void> stage) {
    try {
      stage.join();
      return Disposition.HANDLED;
    } catch (java.util.concurrent.CompletionException e) {
      return Disposition.of(e.getCause());
    }
  }

  private List<CompletableFuture<Void>> push(int copies, int round) {
    List<CompletableFuture<Void>> stages = new ArrayList<>();
    for (int i = 0; i < copies; i++) {
      MailMessage copy =
          MailMessage.to(ORDERS)
              .id("order-" + i)
              .body("{}")
              .header(SystemHeaders.SEND_ID, "key-" + round + "-" + i + "-" + System.nanoTime())
              .header(SystemHeaders.ROUND, Integer.toString(round))
              .build();
      stages.add(pushTo.get().apply(copy).toCompletableFuture());
    }
    return stages;
  }

  private ChannelSettings settings(int maxAttempts) {
    return settings(maxAttempts, ChannelSettings.Delivery.PUSH);
  }

  private ChannelSettings settings(int maxAttempts, ChannelSettings.Delivery delivery) {
    return new ChannelSettings(
        "pushed-orders",
        ORDERS,
        "mailbox/ConnectionFactory",
        Duration.ofSeconds(30),
        16,
        maxAttempts,
        Duration.ZERO,
        Duration.ZERO,
        Duration.ofMillis(20),
        Optional.empty(),
        delivery);
  }

  private void subscribe(ChannelSettings settings, long initialDemand) {
    subscribe(settings, initialDemand, refusals.get() == 0);
  }

  private void subscribe(ChannelSettings settings, long initialDemand, boolean awaitSubscribed) {
    subscribe(settings, initialDemand, awaitSubscribed, Runnable::run);
  }

  private void subscribe(
      ChannelSettings settings,
      long initialDemand,
      boolean awaitSubscribed,
      java.util.function.Consumer<Runnable> inApplicationContext) {
    MailboxConnectionFactory factory = factory();
    new MailboxPublisher(settings, () -> factory, executor, () -> false, inApplicationContext)
        .subscribe(
            FakeConnections.subscriber(
                s -> {
                  subscription.set(s);
                  s.request(initialDemand);
                },
                received::add));
    if (awaitSubscribed) {
      await(() -> pushTo.get() != null);
    }
  }

  /** A connection whose subscribe keeps the consumer (refusing the first {@link #refusals}). */
  @SuppressWarnings("unchecked")
  private MailboxConnectionFactory factory() {
    return FakeConnections.factory(
        FakeConnections.connection(
            java.util.Map.of(
                "subscribe",
                args -> {
                  if (refusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new IllegalStateException("MBX-2003 the broker is away");
                  }
                  pushTo.set((Function<MailMessage, CompletionStage<Void>>) args[1]);
                  return (AutoCloseable) () -> unsubscribed.set(true);
                },
                "can",
                args -> canPushBacklog.get(),
                "fetch",
                args -> {
                  List<io.mailbox.connector.api.Delivery> taken = new ArrayList<>();
                  io.mailbox.connector.api.Delivery next = queued.poll();
                  if (next != null) {
                    taken.add(next);
                  }
                  return taken;
                })));
  }

  private static void await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s");
      }
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
