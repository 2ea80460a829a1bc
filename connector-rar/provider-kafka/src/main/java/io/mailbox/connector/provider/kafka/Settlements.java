package io.mailbox.connector.provider.kafka;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Records settled on any thread, on their way to the poll thread that moves them into their
 * partitions' windows: one task of that thread however many settle meanwhile, not a task and a
 * wake-up each. Counted from before the record leaves the books of records handed out until it is
 * in its window, so the status never misses it.
 */
final class Settlements {
  private final Queue<TopicReader.Pending> settled = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean taskQueued = new AtomicBoolean();
  private final AtomicLong counted = new AtomicLong();

  /** Counts a settlement about to happen; {@link #cancel} it if the record was not held. */
  void counting() {
    counted.incrementAndGet();
  }

  void cancel() {
    counted.decrementAndGet();
  }

  /** Queues a settled record; true when the caller must queue the task that applies them. */
  boolean add(TopicReader.Pending record) {
    settled.add(record);
    return taskQueued.compareAndSet(false, true);
  }

  /**
   * Gives every queued record to {@code apply} (on the poll thread), runs {@code recount}, and only
   * then stops counting them here: a status that reads {@link #count} first and the windows after
   * counts them twice meanwhile, never not at all.
   */
  void applyAll(Consumer<TopicReader.Pending> apply, Runnable recount) {
    taskQueued.set(false); // first: a settlement from now on queues a task of its own
    int applied = 0;
    TopicReader.Pending record;
    while ((record = settled.poll()) != null) {
      apply.accept(record);
      applied++;
    }
    recount.run();
    counted.addAndGet(-applied);
  }

  /** Settled and not yet in a window. */
  long count() {
    return counted.get();
  }
}
