package io.mailbox.messaging;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.tracing.MessageTracing;
import io.mailbox.tracing.MessageTracing.TracedSpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * An incoming channel as a Reactive Streams publisher. It takes messages from its address only
 * under leases and never more than the subscriber requested, nor more than {@code max-in-flight}
 * unacknowledged at once: a slow consumer slows the fetching, it never piles up leases.
 */
final class MailboxPublisher implements Publisher<Message<?>> {
  private static final Logger LOG = Logger.getLogger(MailboxPublisher.class.getName());

  /** How long a channel waits after meeting a handler that is not ready yet. */
  static final Duration NOT_READY_PAUSE = Duration.ofSeconds(1);

  private final ChannelSettings settings;
  private final Supplier<MailboxConnectionFactory> connections;
  private final ScheduledExecutorService executor;
  private final BooleanSupplier applicationStopping;
  private final Consumer<Runnable> inApplicationContext;

  MailboxPublisher(
      ChannelSettings settings,
      Supplier<MailboxConnectionFactory> connections,
      ScheduledExecutorService executor,
      BooleanSupplier applicationStopping) {
    this(settings, connections, executor, applicationStopping, Runnable::run);
  }

  /**
   * @param inApplicationContext runs a task in the deploying application's context: a pushed copy's
   *     wake-up comes on the provider's thread
   */
  MailboxPublisher(
      ChannelSettings settings,
      Supplier<MailboxConnectionFactory> connections,
      ScheduledExecutorService executor,
      BooleanSupplier applicationStopping,
      Consumer<Runnable> inApplicationContext) {
    this.inApplicationContext = inApplicationContext;
    this.settings = settings;
    this.connections = connections;
    this.executor = executor;
    this.applicationStopping = applicationStopping;
  }

  @Override
  public void subscribe(Subscriber<? super Message<?>> subscriber) {
    ChannelSubscription subscription = new ChannelSubscription(subscriber);
    subscriber.onSubscribe(subscription);
  }

  /** One subscriber's demand, in-flight count and fetch loop. */
  private final class ChannelSubscription implements Subscription, IncomingMailboxMessage.NotNow {
    // Dropped on cancel (Reactive Streams rule 3.13): a scheduled pass or a watchdog still queued
    // must not keep a cancelled subscriber reachable.
    private volatile Subscriber<? super Message<?>> subscriber;
    private final AtomicLong demand = new AtomicLong();
    // Each message handed out and not settled yet, with the time after which its slot is freed
    // even without a settlement (see freeOverdueSlots).
    private final Map<Object, Long> inFlight = new ConcurrentHashMap<>();
    private final AtomicBoolean watching = new AtomicBoolean();
    private final AtomicInteger wip = new AtomicInteger();
    // Slots the watchdog freed while their message was still out (a stuck handler): at most
    // max-in-flight of them, so a stuck handler cannot turn the limit into a rate.
    private final Set<Object> orphaned = ConcurrentHashMap.newKeySet();
    // Deliveries whose handler was not there yet, handed out again before anything new is fetched.
    private final Queue<Delivery> notYetHandled = new ConcurrentLinkedQueue<>();
    // delivery=push: the subscription and what it pushed that the demand has not taken yet.
    private final PushedCopies pushed;
    // Fetching where the provider signals arrivals: woken by the next queued copy, not the timer.
    private final ArrivalSignal arrival;
    private final WakeUpTimer timer = new WakeUpTimer(executor, this::wakeUp);
    private volatile long pausedUntilMillis;
    private volatile boolean cancelled;
    // When a slot counts as overdue (see overdueAfterMillis), computed once, not per message.
    private final long overdueAfterMillis;
    // Whether the last fetch failed: an outage is logged once at WARNING, its repeats at FINE and
    // the recovery at INFO, instead of a warning every poll interval. Only drain passes touch it,
    // and they never overlap.
    private boolean fetchFailing;

    ChannelSubscription(Subscriber<? super Message<?>> subscriber) {
      this.subscriber = subscriber;
      this.overdueAfterMillis = overdueAfterMillis(settings.lease());
      this.pushed =
          settings.delivery() == ChannelSettings.Delivery.FETCH
              ? null
              : new PushedCopies(
                  settings, connections, () -> inApplicationContext.accept(this::wakeUp));
      this.arrival =
          new ArrivalSignal(settings, connections, () -> inApplicationContext.accept(this::wakeUp));
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        Subscriber<? super Message<?>> failing = subscriber;
        cancel();
        if (failing != null) {
          failing.onError(
              new IllegalArgumentException(
                  "Reactive Streams rule 3.9: request(" + n + ") must be positive"));
        }
        return;
      }
      demand.accumulateAndGet(
          n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
      drainSoon(Duration.ZERO);
    }

    @Override
    public void cancel() {
      cancelled = true;
      subscriber = null;
      if (pushed != null) {
        pushed.close(); // never handed out: the transport hands those out again
      }
      arrival.close();
    }

    private void drainSoon(Duration delay) {
      if (cancelled) {
        return;
      }
      if (delay.isZero()) {
        wakeUp();
      } else {
        timer.after(delay);
      }
    }

    /**
     * A wake-up (an ack, more demand, a pause over): counted; only the first one while no drain
     * runs or waits to run schedules one. An ack does not queue a task of its own on the executor:
     * the drain that runs or waits sees it and makes one more pass.
     */
    private void wakeUp() {
      if (!cancelled && wip.getAndIncrement() == 0) {
        executor.execute(this::drain);
      }
    }

    private void drain() {
      // A work-in-progress count, not a flag: a wake-up that arrives while a pass is ending is
      // never lost — with a flag, it could find the flag still set and return, and the ending pass
      // would then wait for a wake-up that already came.
      int missed = 1;
      Duration next;
      do {
        next = drainPass();
        missed = wip.addAndGet(-missed);
      } while (missed != 0);
      if (next != null) {
        drainSoon(next);
      }
    }

    /**
     * Hands out what the demand and the free slots allow. Returns when to look again (a pause, an
     * empty fetch, a failure), or {@code null} to wait for a wake-up (more demand, a settlement).
     */
    private Duration drainPass() {
      try {
        while (!cancelled) {
          long wanted = Math.min(demand.get(), settings.maxInFlight() - (long) inFlight.size());
          if (wanted <= 0) {
            return null;
          }
          long pause = pausedUntilMillis - System.currentTimeMillis();
          if (pause > 0) {
            return Duration.ofMillis(pause);
          }
          List<Delivery> taken = takeBack((int) Math.min(wanted, 100));
          // Subscribed once (a refusal is retried below, every poll interval); false: fetching.
          if (taken.isEmpty() && pushed != null && pushed.subscribe()) {
            taken = pushed.take((int) Math.min(wanted, 100));
            if (taken.isEmpty()) {
              return null; // the next push wakes the drain
            }
          }
          if (taken.isEmpty()) {
            taken = fetch((int) Math.min(wanted, 100));
            if (fetchFailing) {
              fetchFailing = false;
              LOG.log(
                  Level.INFO,
                  "Channel {0}: fetching from {1} works again",
                  new Object[] {settings.channel(), settings.address()});
            }
          }
          if (taken.isEmpty()) {
            arrival.arm(); // where the provider can: the next queued copy wakes the drain
            return settings.pollInterval();
          }
          for (Delivery delivery : taken) {
            Object slot = new Object();
            inFlight.put(
                slot,
                settings.lease().isZero()
                    ? Long.MAX_VALUE // a lease that never ends never hands the copy out again
                    : System.currentTimeMillis() + overdueAfterMillis);
            demand.decrementAndGet();
            watchOverdue();
            handOut(delivery, slot);
          }
        }
        return null;
      } catch (RuntimeException e) {
        LOG.log(
            fetchFailing ? Level.FINE : Level.WARNING,
            "Channel {0}: reading from {1} failed, retrying every poll interval (repeats are"
                + " logged at FINE until it works again): {2}",
            new Object[] {settings.channel(), settings.address(), e.getMessage()});
        fetchFailing = true;
        return settings.pollInterval();
      }
    }

    /**
     * Hands one delivery to the subscriber; a message that carries a trace context is handled in a
     * process span of that trace, current on this thread while the subscriber takes it (a handler
     * SmallRye calls from here sends in the same trace) and ended when the message is settled.
     */
    private void handOut(Delivery delivery, Object slot) {
      Subscriber<? super Message<?>> target = subscriber;
      if (target == null) {
        // Cancelled while this batch was handed out: the copy goes back now, not when its lease
        // runs out.
        inFlight.remove(slot);
        try {
          delivery.settle(Disposition.UNHANDLED);
        } catch (RuntimeException e) {
          LOG.log(Level.FINE, "A copy fetched before a cancel goes back at its lease's end", e);
        }
        return;
      }
      TracedSpan span =
          MessageTracing.lookup()
              .startProcess(
                  settings.address().toString(),
                  delivery.message().id(),
                  delivery.message().headers());
      IncomingMailboxMessage message =
          new IncomingMailboxMessage(
              delivery, settings, this::later, () -> settled(slot), this, span);
      try (MessageTracing.Scope current = span.makeCurrent()) {
        target.onNext(message);
      }
    }

    private List<Delivery> fetch(int limit) {
      try (MailboxConnection connection = connections.get().getConnection()) {
        return connection.fetch(
            settings.address(), new FetchOptions(limit, true, settings.lease(), false));
      }
    }

    private List<Delivery> takeBack(int limit) {
      List<Delivery> again = new ArrayList<>();
      Delivery delivery;
      while (again.size() < limit && (delivery = notYetHandled.poll()) != null) {
        again.add(delivery);
      }
      return again;
    }

    /**
     * A handler was not there yet: the whole channel pauses (the next message would meet the same
     * closed door), then hands this delivery out again under its lease, counting no attempt.
     */
    @Override
    public boolean stopping() {
      return cancelled || applicationStopping.getAsBoolean();
    }

    @Override
    public void handOutAgain(Delivery delivery) {
      long now = System.currentTimeMillis();
      boolean newPause = pausedUntilMillis < now;
      pausedUntilMillis = now + NOT_READY_PAUSE.toMillis();
      if (newPause) {
        LOG.log(
            Level.INFO,
            "Channel {0}: its handler is not ready yet (the application is still starting); handing"
                + " the message out again in {1} ms",
            new Object[] {settings.channel(), NOT_READY_PAUSE.toMillis()});
      }
      notYetHandled.add(delivery);
    }

    private void settled(Object slot) {
      if (inFlight.remove(slot) != null) {
        drainSoon(Duration.ZERO);
      } else {
        orphaned.remove(slot); // settled after the watchdog freed it: room for another orphan
      }
    }

    /**
     * A message neither acked nor nacked long after its lease ran out (a handler that lost it, an
     * ack that never came) would hold its slot forever, and max-in-flight of them stop the channel
     * for good. Its lease has handed the copy out again by then, so its slot is freed, said once:
     * after twice the lease plus the lease again (at most 5 s).
     */
    private static long overdueAfterMillis(Duration lease) {
      Duration margin = lease.compareTo(Duration.ofSeconds(5)) < 0 ? lease : Duration.ofSeconds(5);
      return lease.multipliedBy(2).plus(margin).toMillis();
    }

    private void watchOverdue() {
      if (!cancelled && !settings.lease().isZero() && watching.compareAndSet(false, true)) {
        executor.schedule(this::freeOverdueSlots, overdueAfterMillis, TimeUnit.MILLISECONDS);
      }
    }

    private void freeOverdueSlots() {
      long now = System.currentTimeMillis();
      int freed = 0;
      for (Map.Entry<Object, Long> slot : inFlight.entrySet()) {
        if (orphaned.size() >= settings.maxInFlight()) {
          break; // as many still out as the limit: wait for them rather than fetch more
        }
        if (slot.getValue() < now && inFlight.remove(slot.getKey()) != null) {
          orphaned.add(slot.getKey());
          freed++;
        }
      }
      if (freed > 0) {
        int count = freed;
        LOG.warning(
            () ->
                "Channel "
                    + settings.channel()
                    + ": "
                    + count
                    + " message(s) neither acked nor nacked "
                    + overdueAfterMillis
                    + " ms after delivery; their slots are freed (their leases hand them out"
                    + " again)");
        drainSoon(Duration.ZERO);
      }
      watching.set(false);
      if (!inFlight.isEmpty()) {
        watchOverdue();
      }
    }

    private void later(Duration delay, Runnable task) {
      executor.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    }
  }
}
