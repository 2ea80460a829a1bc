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
}
