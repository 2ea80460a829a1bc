package io.mailbox.ejb.event;

import io.mailbox.connector.api.ErrorCode;

/**
 * A definition or envelope refused on the producer or consumer side. The message carries the whole
 * diagnostic (reason, expected against observed), never the payload.
 */
public class IntegrationEventRejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why an event was refused. */
  public enum Reason {
    /** Not a valid envelope (missing or mistyped field, bad instant, not JSON). */
    MALFORMED,
    /** The envelope's type is not the definition's. */
    TYPE,
    /** The envelope's version is not the definition's. */
    VERSION,
    /** The definition's parser refused the data. */
    PARSE,
    /** The definition itself is wrong (checked when it is created). */
    DEFINITION
  }

  private final Reason reason;

  public IntegrationEventRejectedException(Reason reason, String message) {
    super(
        ErrorCode.EVENT_REJECTED.code()
            + " "
            + reason.name().toLowerCase(java.util.Locale.ROOT)
            + ": "
            + message);
    this.reason = reason;
  }

  public IntegrationEventRejectedException(Reason reason, String message, Throwable cause) {
    this(reason, message);
    initCause(cause);
  }

  public Reason reason() {
    return reason;
  }
}
