package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.spi.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The settle watchdog's own failures: a refused schedule leaves nothing watched and never disables
 * it, a timeout that throws never stops the sweeps, and each timeout runs as a task of its own.
 */
class SettleWatchdogTest {
  private final MutableClock clock = new MutableClock();
  private final RecordingScheduler scheduler = new RecordingScheduler();
  private final SettleWatchdog watchdog = new SettleWatchdog(scheduler, clock);

  @Test
  void eachTimeoutRunsAsATaskOfItsOwnAfterTheSweepFoundIt() {
    AtomicInteger timedOut = new AtomicInteger();
    watchdog.watch(Duration.ofSeconds(2), timedOut::incrementAndGet);
    watchdog.watch(Duration.ofSeconds(2), timedOut::incrementAndGet);

    clock.advance(Duration.ofSeconds(1));
    scheduler.runDue(); // sweep 1: nothing due
    clock.advance(Duration.ofSeconds(1));
    scheduler.runDue(); // sweep 2: both due, handed to the scheduler

    assertThat(timedOut).hasValue(0);
    assertThat(scheduler.waitingWithoutDelay()).isEqualTo(2);
    scheduler.runDue();
    assertThat(timedOut).hasValue(2);
    assertThat(watchdog.watched()).isZero();
    assertThat(scheduler.waiting()).as("no sweep once nothing is watched").isZero();
  }

  @Test
  void aTimeoutThatThrowsNeverStopsTheSweeps() {
    AtomicInteger later = new AtomicInteger();
    watchdog.watch(
        Duration.ofSeconds(1),
        () -> {
          throw new IllegalStateException("requeue failed");
        });
    watchdog.watch(Duration.ofSeconds(3), later::incrementAndGet);

    for (int second = 0; second < 3; second++) {
      clock.advance(Duration.ofSeconds(1));
      scheduler.runDue();
      scheduler.runDue();
    }

    assertThat(later).hasValue(1);
    assertThat(scheduler.thrown)
        .extracting(Throwable::getMessage)
        .containsExactly("requeue failed");
  }

  @Test
  void aTimeoutTheSchedulerRefusesIsFoundAgainByTheNextSweep() {
    AtomicInteger timedOut = new AtomicInteger();
    watchdog.watch(Duration.ofSeconds(1), timedOut::incrementAndGet);
    clock.advance(Duration.ofSeconds(1));
    scheduler.refuseNext = true; // the sweep's hand-over of the timeout

    scheduler.runDue();
    assertThat(watchdog.watched()).as("still watched").isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    scheduler.runDue(); // the next sweep
    scheduler.runDue(); // the timeout

    assertThat(timedOut).hasValue(1);
    assertThat(watchdog.watched()).isZero();
  }

  @Test
  void aRefusedSweepLeavesNothingWatchedAndTheNextWatchSchedulesOne() {
    scheduler.refuseNext = true;

    assertThatThrownBy(() -> watchdog.watch(Duration.ofSeconds(1), () -> {}))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(watchdog.watched()).isZero();

    AtomicInteger timedOut = new AtomicInteger();
    watchdog.watch(Duration.ofSeconds(1), timedOut::incrementAndGet);
    assertThat(scheduler.waiting()).as("the next watch scheduled a sweep").isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    scheduler.runDue();
    assertThat(timedOut).hasValue(1);
  }

  @Test
  void aSweepTheSchedulerRefusesIsScheduledAgainByTheNextWatch() {
    watchdog.watch(Duration.ofSeconds(5), () -> {});
    scheduler.refuseNext = true;
    clock.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    assertThat(scheduler.thrown).singleElement().isInstanceOf(RejectedExecutionException.class);

    watchdog.watch(Duration.ofSeconds(5), () -> {});

    assertThat(scheduler.waiting()).as("a sweep scheduled again").isEqualTo(1);
  }

  /** Tasks run only when the test says, each once its delay has passed on the test's clock. */
  private final class RecordingScheduler implements Scheduler {
    private record Task(Instant due, Runnable body) {}

    private final List<Task> tasks = new ArrayList<>();
    final List<RuntimeException> thrown = new ArrayList<>();
    boolean refuseNext;

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
      if (refuseNext) {
        refuseNext = false;
        throw new RejectedExecutionException("closed");
      }
      Task scheduled = new Task(clock.instant().plus(delay), task);
      tasks.add(scheduled);
      return () -> tasks.remove(scheduled);
    }

    /** Runs the tasks due now (not ones they schedule); what they throw is kept in thrown. */
    void runDue() {
      List<Task> due = tasks.stream().filter(t -> !t.due().isAfter(clock.instant())).toList();
      tasks.removeAll(due);
      for (Task task : due) {
        try {
          task.body().run();
        } catch (RuntimeException e) {
          thrown.add(e);
        }
      }
    }

    int waiting() {
      return tasks.size();
    }

    long waitingWithoutDelay() {
      return tasks.stream().filter(t -> !t.due().isAfter(clock.instant())).count();
    }
  }

  private static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-12-07T12:00:00Z");

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
