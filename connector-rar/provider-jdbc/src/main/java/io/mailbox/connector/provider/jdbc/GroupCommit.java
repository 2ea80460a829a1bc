package io.mailbox.connector.provider.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Commits work items issued together in one transaction, without a background thread.
 *
 * <p>Every caller queues its item. If no batch is being written, the caller becomes the writer: it
 * takes everything queued so far (up to {@code maxBatch}) and writes it as one batch, outside the
 * lock. Callers arriving meanwhile wait; when the batch ends they all wake, those whose item was in
 * it return, and one of the rest writes the next batch with everything that queued up. So while one
 * transaction commits, the next one fills up, and a lone caller pays no waiting at all.
 *
 * <p>The durability point does not move: {@link #submit} returns only after the batch holding its
 * item committed, and a batch that fails fails every item in it with the same exception.
 */
final class GroupCommit<T, R> {

  /** Writes a batch in one transaction: one result per item, in order, or throws for all. */
  @FunctionalInterface
  interface BatchWriter<T, R> {
    List<R> write(List<T> batch) throws Exception;
  }

  private final BatchWriter<T, R> writer;
  private final int maxBatch;
  private final ConcurrentLinkedQueue<Pending<T, R>> queue = new ConcurrentLinkedQueue<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final java.util.concurrent.locks.Condition batchEnded = lock.newCondition();
  private boolean writing; // guarded by lock
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong items = new AtomicLong();
  private final AtomicLong writeNanos = new AtomicLong();

  GroupCommit(BatchWriter<T, R> writer, int maxBatch) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch must be at least 1");
    }
    this.writer = writer;
    this.maxBatch = maxBatch;
  }

  /** Writes {@code item} in the next batch and returns its result once that batch committed. */
  R submit(T item) {
    Pending<T, R> pending = new Pending<>(item);
    queue.add(pending);
    awaitWritten(List.of(pending));
    if (pending.failure != null) {
      throw new GroupCommitFailure(pending.failure, 0, 1);
    }
    return pending.result;
  }

  /**
   * Writes {@code items} in order, in as few batches as {@code maxBatch} allows (other callers'
   * items may share them), and returns their results once every batch holding one committed: the
   * Java form of issuing several posts "in the same tick" and awaiting them all.
   *
   * @throws GroupCommitFailure when a batch holding one of the items failed; it says how many of
   *     the items committed anyway (batches are atomic, a multi-batch call is not)
   */
  List<R> submitAll(List<T> items) {
    List<Pending<T, R>> pendings = new ArrayList<>(items.size());
    items.forEach(item -> pendings.add(new Pending<>(item)));
    queue.addAll(pendings); // one add per item, in order: FIFO within the call
    awaitWritten(pendings);
    List<R> results = new ArrayList<>(items.size());
    Throwable failure = null;
    int committed = 0;
    for (Pending<T, R> pending : pendings) {
      if (pending.failure == null) {
        committed++;
        results.add(pending.result);
      } else if (failure == null) {
        failure = pending.failure;
      }
    }
    if (failure != null) {
      throw new GroupCommitFailure(failure, committed, items.size());
    }
    return results;
  }

  /** Returns once every pending item was written, writing batches itself while no one else is. */
  private void awaitWritten(List<Pending<T, R>> pendings) {
    lock.lock();
    try {
      for (Pending<T, R> pending : pendings) {
        awaitWritten(pending);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Called holding the lock; may release it while this caller writes a batch. */
  private void awaitWritten(Pending<T, R> pending) {
    while (!pending.done) {
      if (writing) {
        // Uninterruptible: the item may already be in the transaction being committed, so
        // giving up here could report a committed post as failed.
        batchEnded.awaitUninterruptibly();
        continue;
      }
      writing = true;
      lock.unlock();
      try {
        writeBatch();
      } finally {
        lock.lock();
        writing = false;
        batchEnded.signalAll();
      }
    }
  }

  /** Transactions written so far (each holding one or more items). */
  long batches() {
    return batches.get();
  }

  /** Milliseconds spent inside the batch writer so far (transactions, including commit). */
  long writeMillis() {
    return writeNanos.get() / 1_000_000;
  }

  /** Items queued and not yet taken into a batch. */
  int queued() {
    return queue.size();
  }

  /** Items written so far. */
  long items() {
    return items.get();
  }

  private void writeBatch() {
    // Callers woken by the previous batch are about to queue their next item; let them, so the
    // batch does not start with the leader's item alone (costs nothing when nobody is runnable).
    Thread.yield();
    List<Pending<T, R>> batch = new ArrayList<>();
    for (Pending<T, R> next; batch.size() < maxBatch && (next = queue.poll()) != null; ) {
      batch.add(next);
    }
    if (batch.isEmpty()) {
      return;
    }
    List<T> work = new ArrayList<>(batch.size());
    batch.forEach(p -> work.add(p.item));
    try {
      long began = System.nanoTime();
      List<R> results = writer.write(work);
      writeNanos.addAndGet(System.nanoTime() - began);
      if (results.size() != batch.size()) {
        throw new IllegalStateException(
            "the batch writer returned " + results.size() + " results for " + batch.size());
      }
      for (int i = 0; i < batch.size(); i++) {
        batch.get(i).result = results.get(i);
      }
    } catch (Exception | Error e) {
      batch.forEach(p -> p.failure = e);
    } finally {
      batches.incrementAndGet();
      items.addAndGet(batch.size());
      // Volatile writes after the result: an owner that sees done also sees its result.
      batch.forEach(p -> p.done = true);
    }
  }

  private static final class Pending<T, R> {
    final T item;
    volatile boolean done;
    R result;
    Throwable failure;

    Pending(T item) {
      this.item = item;
    }
  }

  /** The batch holding an item failed; the cause is the batch's exception. */
  static final class GroupCommitFailure extends RuntimeException {
    private final int committed;
    private final int submitted;

    GroupCommitFailure(Throwable cause, int committed, int submitted) {
      super(cause.getMessage(), cause);
      this.committed = committed;
      this.submitted = submitted;
    }

    /** How many of the caller's items committed in other batches before or after the failure. */
    int committed() {
      return committed;
    }

    int submitted() {
      return submitted;
    }
  }
}
