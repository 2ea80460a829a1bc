package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.spi.Scheduler;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Delivers committed branches the providers refused at commit time, in passes on the adapter's
 * scheduler (its bootstrap timer and WorkManager: no thread of its own). A pass that leaves
 * anything behind doubles the wait before the next one, up to a cap; a pass that delivers
 * everything resets it. At most one pass is scheduled at a time.
 */
final class CommittedPostsRetrier {
  private static final Logger LOG = Logger.getLogger(CommittedPostsRetrier.class.getName());

  private final Scheduler scheduler;
  private final BooleanSupplier pass;
  private final Duration firstDelay;
  private final Duration maxDelay;
  private Duration delay;
  private Scheduler.Cancellable scheduled;
  private boolean closed;

  /**
   * @param pass delivers what it can; returns true when nothing committed is left undelivered
   */
  CommittedPostsRetrier(
      Scheduler scheduler, BooleanSupplier pass, Duration firstDelay, Duration maxDelay) {
    this.scheduler = scheduler;
    this.pass = pass;
    this.firstDelay = firstDelay;
    this.maxDelay = maxDelay;
    this.delay = firstDelay;
  }

  /** Schedules a pass after the current backoff, unless one is already scheduled. */
  synchronized void wake() {
    if (!closed && scheduled == null) {
      scheduled = scheduler.schedule(delay, this::runPass);
    }
  }

  /** Calls off the scheduled pass; later wakes do nothing. Entries stay in the log. */
  synchronized void close() {
    closed = true;
    if (scheduled != null) {
      scheduled.cancel();
      scheduled = null;
    }
  }

  synchronized Duration currentDelay() {
    return delay;
  }

  private void runPass() {
    synchronized (this) {
      scheduled = null;
      if (closed) {
        return;
      }
    }
    boolean done;
    try {
      done = pass.getAsBoolean();
    } catch (RuntimeException e) {
      // A failing pass (the log unreadable, the adapter stopping) must not end the retries.
      LOG.log(Level.WARNING, "A delivery pass over committed transactional posts failed", e);
      done = false;
    }
    synchronized (this) {
      if (done) {
        delay = firstDelay;
        return;
      }
      Duration doubled = delay.multipliedBy(2);
      delay = doubled.compareTo(maxDelay) > 0 ? maxDelay : doubled;
    }
    wake();
  }
}
