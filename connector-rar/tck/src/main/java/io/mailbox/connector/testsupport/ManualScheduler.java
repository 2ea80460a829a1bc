package io.mailbox.connector.testsupport;

import io.mailbox.connector.spi.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A {@link Scheduler} on a {@link ManualClock}: tasks run only when {@link #advance(Duration)}
 * moves time past their due instant, on the test's thread, in due order.
 */
public final class ManualScheduler implements Scheduler {
  private final ManualClock clock;
  private final List<Task> tasks = new ArrayList<>();
  private long sequence;

  public ManualScheduler(ManualClock clock) {
    this.clock = clock;
  }

  private final class Task implements Cancellable {
    final Instant due;
    final long order;
    final Runnable body;
    boolean done;

    Task(Instant due, long order, Runnable body) {
      this.due = due;
      this.order = order;
      this.body = body;
    }

    @Override
    public boolean cancel() {
      synchronized (ManualScheduler.this) {
        if (done) {
          return false;
        }
        done = true;
        tasks.remove(this);
        return true;
      }
    }
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    Task scheduled = new Task(clock.instant().plus(delay), sequence++, task);
    tasks.add(scheduled);
    return scheduled;
  }

  /**
   * Moves time forward, running every task that falls due on the way (also ones scheduled
   * meanwhile).
   */
  public void advance(Duration duration) {
    Instant target = clock.instant().plus(duration);
    while (true) {
      Optional<Task> next = nextDue(target);
      if (next.isEmpty()) {
        break;
      }
      Task task = next.get();
      if (task.due.isAfter(clock.instant())) {
        clock.advance(Duration.between(clock.instant(), task.due));
      }
      task.body.run();
    }
    if (target.isAfter(clock.instant())) {
      clock.advance(Duration.between(clock.instant(), target));
    }
  }

  private synchronized Optional<Task> nextDue(Instant limit) {
    Optional<Task> next =
        tasks.stream()
            .filter(t -> !t.due.isAfter(limit))
            .min(Comparator.<Task, Instant>comparing(t -> t.due).thenComparingLong(t -> t.order));
    next.ifPresent(
        t -> {
          t.done = true;
          tasks.remove(t);
        });
    return next;
  }

  public synchronized int pending() {
    return tasks.size();
  }
}
