package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;

/**
 * A transport that can drop every queued copy of an address at once but not one by its key (a
 * broker's queue purge): the operator's purge, without the {@code remove} capability that moving or
 * deleting one message needs. A {@link Removing} transport purges through {@code
 * removeQueuedCopies(address, null)} and need not implement this.
 */
public interface Purging extends Transport {

  /** Removes every queued copy of {@code address}, never one in flight; returns how many. */
  int purgeQueued(MailAddress address);
}
