package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.nats.client.Message;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The messages fetched under a lease, kept here: the server's ack wait is only the lease of a
 * consumer that crashed. An expired lease naks its message (for the next fetch); a release in time
 * makes it held until it is settled; while leased it is kept alive with {@code in-progress}.
 */
final class FetchLeases {
  private final LeaseTable<Message> leases = new LeaseTable<>();
  private final HeldMessages held;
  private final Clock clock;
  private final long keepAliveEverySweeps;
  private long sweeps;

  FetchLeases(HeldMessages held, Clock clock, Duration ackWait) {
    this.held = held;
    this.clock = clock;
    this.keepAliveEverySweeps = Math.max(1, ackWait.toSeconds() / 3);
  }

  void put(MailAddress address, Lease lease, MailMessage handedOut, Message message) {
    leases.put(handedOut.sendId().orElseThrow(), address, lease, handedOut, message);
  }

  /** Ends a lease: the copy, now held until it is settled, or empty when it was too late. */
  Optional<MailMessage> release(MailAddress address, String key, String leaseId) {
    Optional<LeaseTable.Leased<Message>> released = leases.release(address, key, leaseId);
    if (released.isEmpty()) {
      return Optional.empty();
    }
    LeaseTable.Leased<Message> leased = released.get();
    if (leased.lease().isExpiredAt(clock.instant())) {
      leased.handle().nak(); // too late: the lease is over, the message goes to the next fetch
      return Optional.empty();
    }
    held.hold(leased.copy(), address, leased.handle());
    return Optional.of(leased.copy());
  }

  List<InFlightCopy> inFlight(MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  /** Naks the expired leases of {@code address}; returns how many. */
  long reclaimExpired(MailAddress address) {
    List<LeaseTable.Leased<Message>> expired = leases.takeExpired(address, clock.instant());
    expired.forEach(leased -> leased.handle().nak());
    return expired.size();
  }

  /**
   * Every second: expired leases go back; every third of the ack wait, leased and held messages are
   * marked in progress, so the server does not hand out what a fetcher or a subscriber still holds
   * (a subscriber still working on a message, a slow handler or a retry policy's attempts, must not
   * get it a second time, nor see its round raised, while it works).
   */
  void sweepEverySecond() {
    leases.addresses().forEach(this::reclaimExpired);
    if (++sweeps % keepAliveEverySweeps == 0) {
      for (MailAddress address : leases.addresses()) {
        leases.entries(address).forEach(leased -> leased.handle().inProgress());
      }
      held.keepAlive();
    }
  }

  LeaseTable.Census census(MailAddress address) {
    return leases.census(address, clock.instant());
  }

  /** Ends every lease, its message given up for good ({@code term}). */
  void terminateAll() {
    leases.takeAll().forEach(leased -> leased.handle().term());
  }

  void clear() {
    leases.clear();
  }
}
