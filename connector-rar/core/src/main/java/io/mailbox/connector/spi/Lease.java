package io.mailbox.connector.spi;

import java.time.Instant;

/**
 * The lease a manual-ack fetch takes on one copy, fixed at hand-out: no later caller can shorten,
 * stretch or void it.
 *
 * @param id this hand-out; a disposition must name it
 * @param handedOutAt when the copy was handed out
 * @param expiresAt when the lease ends; {@code null} never
 */
public record Lease(String id, Instant handedOutAt, Instant expiresAt) {

  public boolean isExpiredAt(Instant now) {
    return expiresAt != null && !now.isBefore(expiresAt);
  }

  /** How an operator sees {@code copy} (key {@code key}) in flight under this lease. */
  public io.mailbox.connector.api.InFlightCopy inFlight(
      io.mailbox.connector.api.MailAddress address,
      String key,
      io.mailbox.connector.api.MailMessage copy) {
    return new io.mailbox.connector.api.InFlightCopy(
        address, copy.id(), key, id, handedOutAt, expiresAt);
  }
}
