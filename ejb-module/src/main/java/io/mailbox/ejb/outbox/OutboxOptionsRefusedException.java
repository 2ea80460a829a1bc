package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import jakarta.ejb.ApplicationException;

/**
 * An outbox write whose publish options break a rule ({@code MBX-1004}: an ordering key or
 * de-duplication id over 128 UTF-8 bytes, too many or too large headers, a reserved header name),
 * refused before the row exists: the relay could never publish it. The message names the field and
 * the rule, never the refused value. It rolls back the caller's transaction, like an oversized
 * envelope.
 */
@ApplicationException(rollback = true)
public class OutboxOptionsRefusedException extends MailboxException {
  private static final long serialVersionUID = 1L;

  public OutboxOptionsRefusedException(MailboxException refusal) {
    super(ErrorCode.INVALID_MESSAGE, "Outbox write refused: " + withoutCode(refusal));
  }

  /** The refusal's own words, without its code (the same code leads this message). */
  private static String withoutCode(MailboxException refusal) {
    String prefix = refusal.errorCode().code() + " ";
    String message = refusal.getMessage();
    return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }
}
