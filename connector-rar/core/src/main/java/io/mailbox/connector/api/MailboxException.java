package io.mailbox.connector.api;

/**
 * Every refusal the mailbox makes: a stable {@link ErrorCode} plus a message that says what was
 * wrong and what to do. Thrown before anything is changed. Messages never contain payloads or
 * secrets.
 */
public class MailboxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode errorCode;

  public MailboxException(ErrorCode errorCode, String message) {
    super(errorCode.code() + " " + message);
    this.errorCode = errorCode;
  }

  public MailboxException(ErrorCode errorCode, String message, Throwable cause) {
    super(errorCode.code() + " " + message, cause);
    this.errorCode = errorCode;
  }

  public ErrorCode errorCode() {
    return errorCode;
  }
}
