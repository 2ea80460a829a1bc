package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.ErrorCode;
import jakarta.ejb.ApplicationException;

/**
 * An envelope over {@code maxEnvelopeBytes}, refused inside the caller's transaction, which it
 * rolls back: a business write never commits with a row that could never be sent.
 */
@ApplicationException(rollback = true)
public class OutboxEnvelopeTooLargeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public OutboxEnvelopeTooLargeException(String topic, int bytes, int max) {
    super(
        ErrorCode.OUTBOX_ENVELOPE_TOO_LARGE.code()
            + " The "
            + topic
            + " envelope is "
            + bytes
            + " bytes; the outbox accepts at most "
            + max
            + ".");
  }
}
