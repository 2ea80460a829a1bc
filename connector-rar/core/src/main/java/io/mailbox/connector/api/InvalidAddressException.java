package io.mailbox.connector.api;

/** An address that cannot name exactly one mailbox. */
public final class InvalidAddressException extends MailboxException {
  private static final long serialVersionUID = 1L;

  public InvalidAddressException(ErrorCode errorCode, String message) {
    super(errorCode, message);
  }
}
