package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * The subscribers of this provider instance, and the pump that hands them rows nobody pushed: rows
 * queued while their address had no subscriber (before a consumer started, or by another server)
 * and broadcast rows whose window ended unsettled (the process died mid-delivery).
 */
final class SubscriberPump {
  private static final Logger LOG = Logger.getLogger(SubscriberPump.class.getName());
  static final int BATCH = 100;

  /** Takes up to {@link #BATCH} available rows of an address for a broadcast, and dispatches. */
  interface Round {
    void handTo(MailAddress address, List<Receiver> receivers);
  }

  private final Map<MailAddress, List<Receiver>> subscribers = new ConcurrentHashMap<>();
  private final Scheduler scheduler;
  private final BooleanSupplier started;
  private final Round round;
  private volatile Duration interval = Duration.ofSeconds(1);
  private Scheduler.Cancellable next; // guarded by this

  SubscriberPump(Scheduler scheduler, BooleanSupplier started, Round round) {
    this.scheduler = scheduler;
    this.started = started;
    this.round = round;
  }

  /** How often the pump runs; default one second. */
  void interval(Duration interval) {
    if (interval == null || interval.isNegative() || interval.isZero()) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY, "The subscriber poll interval must be positive.");
    }
    this.interval = interval;
  }

  /** Adds a receiver (starting the pump); the handle removes it. */
  AutoCloseable add(MailAddress address, Receiver receiver) {
    List<Receiver> list = subscribers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    list.add(receiver);
    start();
    return () -> list.remove(receiver);
  }

  /** The receivers of {@code address} now. */
  List<Receiver> receivers(MailAddress address) {
    return List.copyOf(subscribers.getOrDefault(address, List.of()));
  }

  int addresses() {
    return subscribers.size();
  }

  private synchronized void start() {
    if (next == null && started.getAsBoolean()) {
      next = scheduler.schedule(Duration.ZERO, this::run);
    }
  }

  synchronized void stop() {
    if (next != null) {
      next.cancel();
      next = null;
    }
  }

  private void run() {
    try {
      for (Map.Entry<MailAddress, List<Receiver>> entry : subscribers.entrySet()) {
        List<Receiver> receivers = List.copyOf(entry.getValue());
        if (!receivers.isEmpty()) {
          round.handTo(entry.getKey(), receivers);
        }
      }
    } catch (RuntimeException e) {
      // The database may be briefly away; the rows stay where they are and the next round retries.
      LOG.warning(() -> "Could not hand queued jdbc: rows to subscribers: " + e.getMessage());
    } finally {
      synchronized (this) {
        next = started.getAsBoolean() ? scheduler.schedule(interval, this::run) : null;
      }
    }
  }
}
