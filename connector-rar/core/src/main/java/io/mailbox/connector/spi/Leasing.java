package io.mailbox.connector.spi;

import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.List;
import java.util.Optional;

/**
 * Capability {@code lease}: manual-ack fetches. {@link Transport#takeQueued} is then called with a
 * lease, and the transport keeps each copy in flight under it until it is released here or
 * reclaimed. {@link LeaseTable} keeps the books for a transport that has no leases of its own.
 */
public interface Leasing extends Transport {

  /**
   * Ends the lease {@code leaseId} on copy {@code key} and returns the copy, or empty when that
   * hand-out is not in flight any more (settled, reclaimed, dropped).
   */
  Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId);

  /** The copies of {@code address} in flight under a lease, oldest first. */
  List<InFlightCopy> inFlightCopies(MailAddress address, int limit);
}
