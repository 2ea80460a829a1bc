package io.mailbox.connector.jca.testsupport;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import java.util.concurrent.atomic.AtomicBoolean;

/** A WorkManager that runs every work on the calling thread, or refuses all of it when told to. */
public final class ImmediateWorkManager implements WorkManager {
  private final AtomicBoolean refusing = new AtomicBoolean();

  /** From now on every submission fails as a container under load would. */
  public void refuseWork() {
    refusing.set(true);
  }

  @Override
  public void doWork(Work work) throws WorkException {
    run(work);
  }

  @Override
  public void doWork(Work work, long timeout, ExecutionContext context, WorkListener listener)
      throws WorkException {
    run(work);
  }

  @Override
  public long startWork(Work work) throws WorkException {
    run(work);
    return 0;
  }

  @Override
  public long startWork(Work work, long timeout, ExecutionContext context, WorkListener listener)
      throws WorkException {
    run(work);
    return 0;
  }

  @Override
  public void scheduleWork(Work work) throws WorkException {
    run(work);
  }

  @Override
  public void scheduleWork(Work work, long timeout, ExecutionContext context, WorkListener listener)
      throws WorkException {
    run(work);
  }

  private void run(Work work) throws WorkException {
    if (refusing.get()) {
      throw new WorkException("refused by the test");
    }
    work.run();
  }
}
