package io.mailbox.connector.api;

import java.time.Instant;
import java.util.Optional;

/**
 * One fetched copy. A manual-ack fetch returns open deliveries under a lease: settle each exactly
 * once. Auto-ack and peek return deliveries that are already settled (settling them returns false).
 */
public interface Delivery {
  /** The copy as handed out (with {@code mbx-round}); a peek returns a detached copy. */
  MailMessage message();

  /** The mailbox it was taken from. */
  MailAddress address();

  /** The copy key ({@code mbx-send-id}); settlement is by this key, never by the sender's id. */
  String key();

  /** The hand-out this delivery represents; a stale handle cannot settle a newer lease. */
  Optional<String> leaseId();

  /** When the lease expires; empty when it never does or there is no lease. */
  Optional<Instant> leaseExpiresAt();

  /** Settles as {@link Disposition#HANDLED}. */
  default boolean ack() {
    return settle(Disposition.HANDLED);
  }

  /**
   * Settles this delivery.
   *
   * @return true when it took effect; false, changing nothing, when this delivery was already
   *     settled, its lease was reclaimed, or it was never leased (auto-ack, peek)
   * @throws MailboxException {@link ErrorCode#UNSUPPORTED_CAPABILITY} for an undeclared disposition
   */
  boolean settle(Disposition disposition);
}
