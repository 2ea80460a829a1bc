package io.mailbox.messaging;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Optional;
import java.util.function.Supplier;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/** The JTA transaction of the current thread, as the channels see it. */
final class CallerTransaction {
  /** Where the registry comes from: JNDI in a server; a test may put its own here. */
  static Supplier<Optional<TransactionSynchronizationRegistry>> registries =
      CallerTransaction::lookup;

  private CallerTransaction() {}

  /** Whether this thread is inside an active JTA transaction. */
  static boolean isActive() {
    return registry().map(r -> r.getTransactionStatus() == Status.STATUS_ACTIVE).orElse(false);
  }

  /**
   * Whether this thread has a transaction at all, active or not (marked for rollback, completing):
   * a send there must neither join it nor go out on its own.
   */
  static boolean exists() {
    return registry()
        .map(r -> r.getTransactionStatus() != Status.STATUS_NO_TRANSACTION)
        .orElse(false);
  }

  /** The key of this thread's active transaction, if it has one. */
  static Optional<Object> key() {
    return registry()
        .filter(r -> r.getTransactionStatus() == Status.STATUS_ACTIVE)
        .map(TransactionSynchronizationRegistry::getTransactionKey);
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

  /** Runs {@code check} just before this thread's active transaction completes. */
  static void beforeCompletion(Runnable check) {
    registry()
        .filter(r -> r.getTransactionStatus() == Status.STATUS_ACTIVE)
        .ifPresent(
            r ->
                r.registerInterposedSynchronization(
                    new Synchronization() {
                      @Override
                      public void beforeCompletion() {
                        check.run();
                      }

                      @Override
                      public void afterCompletion(int status) {}
                    }));
  }

  private static Optional<TransactionSynchronizationRegistry> registry() {
    return registries.get();
  }

  // The server's registry, once found: one object per server, so a send does not pay a JNDI lookup
  // for every question it asks. A miss is not kept (a thread without a naming context can miss).
  private static volatile TransactionSynchronizationRegistry found;

  private static Optional<TransactionSynchronizationRegistry> lookup() {
    TransactionSynchronizationRegistry known = found;
    if (known != null) {
      return Optional.of(known);
    }
    try {
      known =
          (TransactionSynchronizationRegistry)
              new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
      found = known;
      return Optional.of(known);
    } catch (NamingException e) {
      return Optional.empty();
    }
  }
}
