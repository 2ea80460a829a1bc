package io.mailbox.ejb.inbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.RetriableDeliveryException;

/**
 * A handler failure with attempts left: retriable by design, so a mailbox channel or MDB hands the
 * delivery back for another try.
 */
public class InboxFailureException extends RetriableDeliveryException {
  private static final long serialVersionUID = 1L;

  public InboxFailureException(String consumer, String topic, Throwable cause) {
    super(
        ErrorCode.INBOX_HANDLER_FAILED.code()
            + " Inbox consumer "
            + consumer
            + " failed on "
            + topic
            + "; it will be redelivered",
        cause);
  }
}
