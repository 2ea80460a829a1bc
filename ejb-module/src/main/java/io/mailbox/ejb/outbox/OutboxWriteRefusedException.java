package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import jakarta.ejb.ApplicationException;

/**
 * An outbox write refused before its row exists ({@code MBX-3007}: a value longer than its column).
 * It rolls back the caller's transaction, like an oversized envelope: a business change never
 * commits without the event it announces.
 */
@ApplicationException(rollback = true)
public class OutboxWriteRefusedException extends MailboxException {
  private static final long serialVersionUID = 1L;

  public OutboxWriteRefusedException(String why) {
    super(ErrorCode.OUTBOX_FIELD_TOO_LONG, "Outbox write refused: " + why + "; shorten it.");
  }
}
