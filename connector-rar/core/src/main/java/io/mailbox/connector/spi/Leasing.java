package io.mailbox.connector.spi;

import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

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

  /** A copy handed out under a lease of its own. */
  record LeasedCopy(MailMessage copy, Lease lease) {}

  /**
   * Takes up to {@code limit} copies, each under a lease of its own that {@code leases} makes as
   * that copy is handed out, so each can be settled or reclaimed alone. {@code leases} may be
   * called under the transport's locks: it only reads a clock and makes an id. The default takes
   * one copy per {@link #takeQueued} call, so each lease starts when its copy leaves even where a
   * take is a round trip to a broker; a transport that hands several out in one step takes them
   * together.
   */
  default List<LeasedCopy> takeLeased(
      MailAddress address, int limit, Supplier<Lease> leases, UnaryOperator<MailMessage> handOut) {
    List<LeasedCopy> taken = new ArrayList<>();
    while (taken.size() < limit) {
      Lease lease = leases.get();
      List<MailMessage> one = takeQueued(address, 1, lease, handOut);
      if (one.isEmpty()) {
        break;
      }
      taken.add(new LeasedCopy(one.get(0), lease));
    }
    return taken;
  }

  /** The copies of {@code address} in flight under a lease, oldest first. */
  List<InFlightCopy> inFlightCopies(MailAddress address, int limit);
}
