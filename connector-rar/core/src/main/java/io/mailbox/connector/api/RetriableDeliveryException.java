package io.mailbox.connector.api;

/**
 * Thrown by a consumer (an MDB, a subscriber) to say "not now, try again later": the message goes
 * back to its mailbox instead of being discarded. Any other exception discards the delivery so one
 * bad message is not retried forever.
 */
public class RetriableDeliveryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RetriableDeliveryException(String message) {
    super(message);
  }

  public RetriableDeliveryException(String message, Throwable cause) {
    super(message, cause);
  }
}
