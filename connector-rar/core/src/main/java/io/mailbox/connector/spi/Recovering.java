package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;

/** Capability {@code recover}: expired leases go back to their queue on demand. */
public interface Recovering extends Leasing {

  /** Reclaims the expired leases of {@code address}; returns how many went back. Idempotent. */
  long reclaimExpired(MailAddress address);
}
