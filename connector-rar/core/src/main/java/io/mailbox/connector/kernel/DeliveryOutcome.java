package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Disposition;

/**
 * How one delivery (one subscriber's retry chain) ended.
 *
 * @param disposition handled, unhandled (retriable, cancelled or timed out) or discard (fatal)
 * @param attempts attempts made in the chain
 * @param failure the last failure, {@code null} when handled
 */
public record DeliveryOutcome(Disposition disposition, int attempts, Throwable failure) {

  public boolean handled() {
    return disposition.equals(Disposition.HANDLED);
  }

  /** The dead-letter reason this outcome gives when the message is given up. */
  public String deadLetterReason() {
    return disposition.equals(Disposition.UNHANDLED) ? "retriable" : "fatal";
  }
}
