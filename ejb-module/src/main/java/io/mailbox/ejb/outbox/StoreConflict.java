package io.mailbox.ejb.outbox;

import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * A statement the database rolled back because it ran into another transaction: a deadlock victim
 * or a serialization failure (SQLSTATE class 40, as PostgreSQL, MariaDB and H2 report both). Two
 * relays claiming and settling overlapping rows in one statement each can lock them in different
 * orders; the database then undoes one of them, whole. That is contention, not a failing store: the
 * relay treats an undone claim as rows another relay holds, and runs an undone status write again
 * in a new transaction.
 */
final class StoreConflict {
  /** How often a status write undone by a conflict runs again before its error ends the sweep. */
  static final int WRITE_ATTEMPTS = 3;

  private StoreConflict() {}

  /** Whether {@code failure}, or one of its causes, is a transaction the database rolled back. */
  static boolean is(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql) {
        for (SQLException next = sql; next != null; next = next.getNextException()) {
          if (next.getSQLState() != null && next.getSQLState().startsWith("40")) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** {@code write}, run again while a conflict undoes it, at most {@link #WRITE_ATTEMPTS} times. */
  static <T> T retried(Supplier<T> write, Runnable onConflict) {
    for (int attempt = 1; ; attempt++) {
      try {
        return write.get();
      } catch (RuntimeException e) {
        if (attempt >= WRITE_ATTEMPTS || !is(e)) {
          throw e;
        }
        onConflict.run();
      }
    }
  }
}
