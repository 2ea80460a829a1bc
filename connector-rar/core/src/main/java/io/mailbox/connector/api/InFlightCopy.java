package io.mailbox.connector.api;

import java.io.Serializable;
import java.time.Instant;

/**
 * A copy handed out and not settled yet, as an operator sees it.
 *
 * @param address where it was handed out
 * @param messageId the sender's id
 * @param key the copy key
 * @param leaseId the hand-out ({@code broadcast} for a push delivery in progress)
 * @param handedOutAt when it was handed out, when the provider knows
 * @param expiresAt when the lease ends ({@code null}: never); past it the copy is overdue
 */
public record InFlightCopy(
    MailAddress address,
    String messageId,
    String key,
    String leaseId,
    Instant handedOutAt,
    Instant expiresAt)
    implements Serializable {

  public boolean isOverdueAt(Instant now) {
    return expiresAt != null && !now.isBefore(expiresAt);
  }
}
