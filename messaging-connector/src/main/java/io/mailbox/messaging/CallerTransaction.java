package io.mailbox.messaging;

import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/** The JTA transaction of the thread that sends on a channel, if it has one. */
final class CallerTransaction {
  private CallerTransaction() {}

  /** Whether this thread is inside an active JTA transaction. */
  static boolean isActive() {
    return registry().map(r -> r.getTransactionStatus() == Status.STATUS_ACTIVE).orElse(false);
  }

  /**
   * Dooms this thread's transaction, if it has one: a send that failed inside it must not let the
   * rest of its writes commit without the message.
   */
  static void setRollbackOnly() {
    registry()
        .filter(r -> r.getTransactionStatus() == Status.STATUS_ACTIVE)
        .ifPresent(TransactionSynchronizationRegistry::setRollbackOnly);
  }

  private static Optional<TransactionSynchronizationRegistry> registry() {
    try {
      return Optional.of(
          (TransactionSynchronizationRegistry)
              new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry"));
    } catch (NamingException e) {
      return Optional.empty();
    }
  }
}
