package io.mailbox.connector.spi;

import java.time.Duration;

/**
 * Runs a task later: retry backoff, the delivery watchdog and the lease sweeper. Behind an
 * interface so tests advance time by hand and the resource adapter can run tasks on its own
 * threads.
 */
public interface Scheduler {

  /** Runs {@code task} once after {@code delay}; the handle cancels it if it has not started. */
  Cancellable schedule(Duration delay, Runnable task);

  /** A scheduled task that can still be called off. */
  interface Cancellable {
    /** Returns true when the task was called off before it ran. */
    boolean cancel();
  }
}
