package io.mailbox.ejb.outbox;

import java.util.concurrent.Executor;

/**
 * {@link OutboxRelayOrderedBatchTest} with each batch finished on a thread of its own, as the
 * server runs the relay.
 */
class OutboxRelayOrderedBatchPipelinedTest extends OutboxRelayOrderedBatchTest {
  @Override
  Executor finishing() {
    return FinishingThreads.EACH_ON_ITS_OWN;
  }
}
