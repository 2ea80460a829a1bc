package io.mailbox.connector.jca.testsupport;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Timer;

/** The pieces of a server an adapter asks for at start, without a server. */
public final class FakeBootstrapContext implements BootstrapContext {
  private final WorkManager workManager;

  /** Work runs at once on the submitting thread. */
  public FakeBootstrapContext() {
    this(new ImmediateWorkManager());
  }

  public FakeBootstrapContext(WorkManager workManager) {
    this.workManager = workManager;
  }

  @Override
  public WorkManager getWorkManager() {
    return workManager;
  }

  @Override
  public XATerminator getXATerminator() {
    return null;
  }

  @Override
  public Timer createTimer() {
    return new Timer(true);
  }

  @Override
  public boolean isContextSupported(Class<? extends WorkContext> workContextClass) {
    return false;
  }

  @Override
  public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
    return null;
  }
}
