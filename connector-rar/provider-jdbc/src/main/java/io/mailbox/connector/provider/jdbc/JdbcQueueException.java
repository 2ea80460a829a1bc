package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import java.sql.SQLException;

/**
 * The queue's database refused or could not be reached; the SQL state, never the statement's data.
 */
final class JdbcQueueException extends MailboxException {
  private static final long serialVersionUID = 1L;

  JdbcQueueException(SQLException cause) {
    super(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "The jdbc: queue's database failed (SQL state "
            + cause.getSQLState()
            + "); nothing was changed by this call.",
        cause);
  }

  /** A multi-post call whose batches partly committed: says how many of its posts are stored. */
  JdbcQueueException(SQLException cause, int committed, int submitted) {
    super(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "The jdbc: queue's database failed (SQL state "
            + cause.getSQLState()
            + "); "
            + committed
            + " of the "
            + submitted
            + " posts of this call were stored in batches that committed, the rest were not.",
        cause);
  }
}
