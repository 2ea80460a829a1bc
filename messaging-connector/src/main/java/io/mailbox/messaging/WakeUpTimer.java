package io.mailbox.messaging;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A channel's timed wake-ups (a poll interval, a pause's end), never more timers than needed: a
 * wake-up is scheduled only when no timer is due sooner, because the pass that timer wakes
 * schedules again what it still needs. A signal or an ack may wake the channel before a timer, and
 * a pass that finds the queue empty again must not leave one more timer behind each time; a pass
 * that needs an earlier wake-up (a pause's end) still gets it.
 */
final class WakeUpTimer {
  private final ScheduledExecutorService executor;
  private final Runnable wakeUp;
  // When the earliest timer still to come is due; Long.MAX_VALUE: none.
  private final AtomicLong dueAt = new AtomicLong(Long.MAX_VALUE);

  WakeUpTimer(ScheduledExecutorService executor, Runnable wakeUp) {
    this.executor = executor;
    this.wakeUp = wakeUp;
  }

  /** Wakes the channel after {@code delay}, unless a timer is due no later. */
  void after(Duration delay) {
    long due = System.currentTimeMillis() + delay.toMillis();
    long pending;
    do {
      pending = dueAt.get();
      if (pending <= due) {
        return;
      }
    } while (!dueAt.compareAndSet(pending, due));
    try {
      executor.schedule(
          () -> {
            dueAt.compareAndSet(due, Long.MAX_VALUE);
            wakeUp.run();
          },
          delay.toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (RuntimeException refused) {
      dueAt.compareAndSet(due, Long.MAX_VALUE); // a refused schedule leaves no timer pending
      throw refused;
    }
  }
}
