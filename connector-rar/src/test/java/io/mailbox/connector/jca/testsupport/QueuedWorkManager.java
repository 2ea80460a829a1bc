package io.mailbox.connector.jca.testsupport;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import java.util.ArrayDeque;
import java.util.Deque;

/** A WorkManager that only collects work; the test decides when each piece runs. */
public final class QueuedWorkManager implements WorkManager {
  private final Deque<Work> queued = new ArrayDeque<>();

  public synchronized int queued() {
    return queued.size();
  }

  /** Runs the oldest queued work on the calling thread. */
  public void runNext() {
    Work next;
    synchronized (this) {
      next = queued.pollFirst();
    }
    if (next == null) {
      throw new IllegalStateException("no work queued");
    }
    next.run();
  }

  private synchronized void add(Work work) {
    queued.addLast(work);
  }

  @Override
  public void doWork(Work work) {
    add(work);
  }

  @Override
  public void doWork(Work work, long timeout, ExecutionContext context, WorkListener listener) {
    add(work);
  }

  @Override
  public long startWork(Work work) {
    add(work);
    return 0;
  }

  @Override
  public long startWork(Work work, long timeout, ExecutionContext context, WorkListener listener) {
    add(work);
    return 0;
  }

  @Override
  public void scheduleWork(Work work) {
    add(work);
  }

  @Override
  public void scheduleWork(
      Work work, long timeout, ExecutionContext context, WorkListener listener) {
    add(work);
  }
}
