package io.mailbox.connector.api;

/**
 * Every refusal the mailbox makes: a stable {@link ErrorCode} plus a message that says what was
 * wrong and what to do. Thrown before anything is changed. Messages never contain payloads or
 * secrets.
 */
public class MailboxException extends RuntimeException implements Retriable {
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

  /**
   * Worth trying again later: a broker or database that could not be reached or did not answer in
   * time ({@code MBX-2003}), a post not confirmed within its publish bound ({@code MBX-2009}), a
   * request without a reply in time ({@code MBX-2010}), or a cause that is (a timed-out or refused
   * connection). A channel whose outgoing post failed this way leaves its incoming message
   * unhandled (retried), never dead-lettered for an outage.
   */
  @Override
  public boolean isRetriable() {
    return errorCode == ErrorCode.CONNECTION_UNAVAILABLE
        || errorCode == ErrorCode.PUBLISH_TIMEOUT
        || errorCode == ErrorCode.REQUEST_TIMEOUT
        || (getCause() != null && getCause() != this && Disposition.isRetriable(getCause()));
  }
}
