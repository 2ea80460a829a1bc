package io.mailbox.connector.spi;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Scheduler} on a small daemon timer thread; tasks run on {@code runner} (the timer thread
 * itself by default) so a slow callback never delays other timers when a pool is given. Daemon
 * threads cannot keep a JVM alive; {@link #close()} stops them.
 */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final ScheduledExecutorService timer;
  private final Executor runner;

  public ExecutorScheduler() {
    this(null);
  }

  /**
   * Fires timers on an own daemon thread and runs the tasks on {@code runner} (null: the timer
   * thread).
   */
  public ExecutorScheduler(Executor runner) {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            task -> {
              Thread thread = new Thread(task, "mailbox-timer-" + THREADS.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    executor.setRemoveOnCancelPolicy(true);
    this.timer = executor;
    this.runner = runner;
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    Runnable body = runner == null ? task : () -> runner.execute(task);
    ScheduledFuture<?> future =
        timer.schedule(body, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  /**
   * Timers waiting to fire (retry backoffs, watchdogs, sweeps); cancelled ones are removed at once.
   * Read-only, for diagnostics: a number that keeps growing under steady traffic is a leak.
   */
  public int pendingTasks() {
    return ((ScheduledThreadPoolExecutor) timer).getQueue().size();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
