package io.mailbox.messaging;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The JTA transaction an {@link OutgoingMailboxMessage} was created in, and whether the channel
 * wrote it there. A reactive emitter hands a message to the channel on whichever thread is draining
 * it: under concurrency, another sender's thread, inside another sender's transaction. Written
 * there, an order's shipping request would commit or roll back with somebody else's order. So the
 * channel writes a message only on a thread of its own transaction; and just before that
 * transaction completes, a message it did not get is a reason to roll it back — nothing commits
 * without its message.
 */
final class SenderTransaction {
  private static final Logger LOG = Logger.getLogger(SenderTransaction.class.getName());

  /** Created outside any transaction: the channel posts it on its own. */
  static final SenderTransaction NONE = new SenderTransaction(null);

  private final Object key;
  private final AtomicBoolean written = new AtomicBoolean();

  private SenderTransaction(Object key) {
    this.key = key;
  }

  /** The current thread's transaction, watched until it completes; {@link #NONE} without one. */
  static SenderTransaction capture() {
    return CallerTransaction.key()
        .map(
            key -> {
              SenderTransaction origin = new SenderTransaction(key);
              CallerTransaction.beforeCompletion(origin::rollBackIfNotWritten);
              return origin;
            })
        .orElse(NONE);
  }

  /** Whether the message was created inside a transaction. */
  boolean isTransactional() {
    return key != null;
  }

  /** Whether the current thread runs in the transaction the message was created in. */
  boolean isCurrent() {
    return key != null && CallerTransaction.key().map(key::equals).orElse(false);
  }

  void markWritten() {
    written.set(true);
  }

  private void rollBackIfNotWritten() {
    if (!written.get()) {
      LOG.warning(
          "A message created in this transaction for a mailbox channel was not written in it"
              + " (sent on another thread, refused, or never sent): the transaction is rolled"
              + " back so that nothing commits without it (MBX-2005)");
      CallerTransaction.setRollbackOnly();
    }
  }
}
