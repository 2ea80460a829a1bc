package io.mailbox.connector.jca;

import io.mailbox.connector.spi.Scheduler;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.time.Duration;
import java.util.Timer;
import java.util.TimerTask;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The kernel's timers inside a server: the adapter's own {@link Timer} (from the bootstrap context)
 * fires, and the task runs on a WorkManager thread, so no thread the adapter uses is its own.
 */
final class WorkManagerScheduler implements Scheduler {
  private static final Logger LOG = Logger.getLogger(WorkManagerScheduler.class.getName());

  private final Timer timer;
  private final WorkManager workManager;

  WorkManagerScheduler(BootstrapContext context) throws jakarta.resource.spi.UnavailableException {
    this.timer = context.createTimer();
    this.workManager = context.getWorkManager();
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    TimerTask timerTask =
        new TimerTask() {
          @Override
          public void run() {
            try {
              workManager.scheduleWork(new TaskWork(task));
            } catch (WorkException e) {
              // A refused timer task would silently drop a retry or a watchdog: run it here
              // instead.
              LOG.log(
                  Level.WARNING,
                  "WorkManager refused a timer task; running it on the timer thread",
                  e);
              task.run();
            }
          }
        };
    timer.schedule(timerTask, Math.max(0, delay.toMillis()));
    return timerTask::cancel;
  }

  /**
   * Runs {@code task} on a WorkManager thread and returns when it is done (no transaction context
   * travels with it); a refusal, or no thread within {@value #START_TIMEOUT_MILLIS} ms, is thrown
   * as an {@link IllegalStateException}.
   */
  void runToCompletion(Runnable task) {
    try {
      // Bounded start: a pool busy with callers that all wait here (MDB deliveries commit on
      // WorkManager threads) must not deadlock; a task not started in time is refused, and the
      // caller keeps its posts for the retrier.
      workManager.doWork(new TaskWork(task), START_TIMEOUT_MILLIS, null, null);
    } catch (WorkException e) {
      throw new IllegalStateException("the WorkManager refused the task: " + e.getMessage(), e);
    }
  }

  /** How long {@link #runToCompletion} waits for a WorkManager thread. */
  static final long START_TIMEOUT_MILLIS = 5_000;

  void close() {
    timer.cancel();
  }

  private record TaskWork(Runnable task) implements Work {
    @Override
    public void run() {
      task.run();
    }

    @Override
    public void release() {
      // Timer tasks are short; nothing to interrupt.
    }
  }
}
