package io.mailbox.ejb.outbox;

import java.util.concurrent.Executor;

/** Executors for a pipelined relay in tests. */
final class FinishingThreads {
  /** Every finish on a new daemon thread: nothing to shut down, and it never runs inline. */
  static final Executor EACH_ON_ITS_OWN =
      task -> {
        Thread thread = new Thread(task, "relay-finish");
        thread.setDaemon(true);
        thread.start();
      };

  private FinishingThreads() {}
}
