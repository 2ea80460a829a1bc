package io.mailbox.connector.kernel;

import io.mailbox.connector.spi.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The watchdog over delivery attempts still running when {@code deliver()} returned (a pushed
 * channel's message until its ack, an asynchronous subscriber): one sweep for all of them, at most
 * every second, instead of a timer per attempt.
 *
 * <p>Why not a timer each: arming and cancelling one was the costliest step of an asynchronous
 * delivery (a 1 ms profile of a Kafka channel: a tenth of the channel's thread in the timer queue's
 * lock and re-sorting), and inside a server the timer is the adapter's {@code java.util.Timer},
 * which keeps a cancelled task — and the message copy it refers to — until its time comes: at
 * 10,000 messages a second and the default 30 s, 300,000 copies held for nothing.
 *
 * <p>An attempt times out at the first sweep at or after its deadline: late by at most the sweep
 * interval, never early. The sweep only finds them; each timeout runs as a task of its own on the
 * scheduler (in a server, on a WorkManager thread of its own), since settling one may block on its
 * transport (a requeue over the network). Deadlines are on the transport's clock, as leases are.
 */
final class SettleWatchdog {
  private static final Logger LOG = Logger.getLogger(SettleWatchdog.class.getName());
  private static final Duration MAX_SWEEP_INTERVAL = Duration.ofSeconds(1);

  private final Scheduler scheduler;
  private final Clock clock;
  private final Set<Watch> running = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean sweepScheduled = new AtomicBoolean();
  // From the last attempt watched: a timeout changed at run time sets the pace from then on.
  private volatile Duration sweepInterval = MAX_SWEEP_INTERVAL;

  SettleWatchdog(Scheduler scheduler, Clock clock) {
    this.scheduler = scheduler;
    this.clock = clock;
  }

  /** One attempt watched: {@code onTimeout} runs on a sweep once {@code timeout} has passed. */
  final class Watch {
    private final long deadlineMillis;
    private final Runnable onTimeout;

    private Watch(long deadlineMillis, Runnable onTimeout) {
      this.deadlineMillis = deadlineMillis;
      this.onTimeout = onTimeout;
    }

    /** The attempt settled: no timeout, and nothing of it kept. */
    void disarm() {
      running.remove(this);
    }
  }

  /**
   * Watches an attempt; {@code timeout} must be positive. A scheduler that refuses the sweep is
   * thrown to the caller, with nothing left watched.
   */
  Watch watch(Duration timeout, Runnable onTimeout) {
    Watch watch = new Watch(clock.millis() + timeout.toMillis(), onTimeout);
    sweepInterval = timeout.compareTo(MAX_SWEEP_INTERVAL) < 0 ? timeout : MAX_SWEEP_INTERVAL;
    running.add(watch);
    try {
      scheduleSweep();
    } catch (RuntimeException refused) {
      running.remove(watch);
      throw refused;
    }
    return watch;
  }

  /** Attempts watched and not settled yet (for tests and diagnostics). */
  int watched() {
    return running.size();
  }

  private void scheduleSweep() {
    if (sweepScheduled.compareAndSet(false, true)) {
      try {
        scheduler.schedule(sweepInterval, this::sweep);
      } catch (RuntimeException refused) {
        sweepScheduled.set(false); // else no later watch could ever schedule one
        throw refused;
      }
    }
  }

  private void sweep() {
    try {
      long now = clock.millis();
      for (Watch watch : running) {
        if (watch.deadlineMillis <= now && running.remove(watch)) {
          try {
            scheduler.schedule(Duration.ZERO, watch.onTimeout);
          } catch (RuntimeException refused) {
            running.add(watch); // timed out at the next sweep instead
            throw refused;
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "The settle watchdog's sweep failed; it sweeps again", e);
    } finally {
      // Cleared before the look: an attempt watched meanwhile either schedules the next sweep
      // itself or is seen here.
      sweepScheduled.set(false);
      if (!running.isEmpty()) {
        scheduleSweep();
      }
    }
  }
}
