package io.mailbox.connector.spi;

import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A task a transport runs every {@code interval} on its scheduler from {@link #start} until {@link
 * #stop} — a lease sweeper, for example. A run that fails is logged and the next one retries; a run
 * already going when it is stopped schedules nothing more.
 */
public final class PeriodicTask {
  private static final Logger LOG = Logger.getLogger(PeriodicTask.class.getName());

  private final String name;
  private final Scheduler scheduler;
  private final Duration interval;
  private final Runnable task;
  private boolean running; // guarded by this
  private Scheduler.Cancellable next; // guarded by this

  /**
   * @param name what the task does, for the log
   */
  public PeriodicTask(String name, Scheduler scheduler, Duration interval, Runnable task) {
    if (interval == null || interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("The interval of " + name + " must be positive.");
    }
    this.name = name;
    this.scheduler = scheduler;
    this.interval = interval;
    this.task = task;
  }

  /** Schedules the first run one interval from now. Idempotent. */
  public synchronized void start() {
    if (!running) {
      running = true;
      next = scheduler.schedule(interval, this::run);
    }
  }

  public synchronized void stop() {
    running = false;
    if (next != null) {
      next.cancel();
      next = null;
    }
  }

  private void run() {
    try {
      task.run();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, name + " failed; the next run retries", e);
    } finally {
      synchronized (this) {
        next = running ? scheduler.schedule(interval, this::run) : null;
      }
    }
  }
}
