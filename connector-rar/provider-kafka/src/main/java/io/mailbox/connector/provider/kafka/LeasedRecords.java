package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The records this process handed out under a lease (manual-ack fetches: the {@code @Incoming}
 * channels). Kafka has no per-record lease in a classic group, so the lease lives here ({@link
 * LeaseTable}); the record itself stays unsettled in its {@link AddressReader} (holding its
 * partition's commit back, or locked in its share group), so a crash redelivers it from Kafka. An
 * expired lease hands the record out again at once, as its next round; a record whose partition
 * moved to another member is dropped from the books (the new owner reads it again, and a late
 * settlement changes nothing).
 */
final class LeasedRecords {
  private final LeaseTable<Void> leases = new LeaseTable<>();
  private final Function<MailAddress, AddressReader> readers;
  private final Supplier<Instant> clock;
  private final AddressReader.RetryTimer timer;

  /**
   * @param readers the reader of an address, or null when there is none
   */
  LeasedRecords(
      Function<MailAddress, AddressReader> readers,
      Supplier<Instant> clock,
      AddressReader.RetryTimer timer) {
    this.readers = readers;
    this.clock = clock;
    this.timer = timer;
  }

  /** A record past the delivery cap: given up (dead-lettered) instead of handed out. */
  interface GiveUp {
    void giveUp(MailAddress address, MailMessage copy, String reason, int deliveredBefore);
  }

  /**
   * A fetch of up to {@code limit} records the address's reader has not handed out, oldest first,
   * waiting up to {@code wait} for some: settled at once without a lease, else leased here; a
   * leased one delivered up to the cap is given up instead.
   */
  List<MailMessage> take(
      AddressReaders all,
      MailAddress address,
      int limit,
      Lease lease,
      Duration wait,
      UnaryOperator<MailMessage> handOut,
      GiveUp giveUp) {
    List<MailMessage> handedOut = new ArrayList<>();
    for (MailMessage copy : all.of(address).take(limit, wait, lease == null)) {
      int deliveredBefore = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 0);
      if (lease != null && all.overDeliveryCap(address, deliveredBefore)) {
        giveUp.giveUp(address, copy, "max-deliveries", deliveredBefore);
        continue;
      }
      MailMessage out = handOut.apply(copy);
      if (lease != null) {
        put(address, lease, out);
      }
      handedOut.add(out);
    }
    return handedOut;
  }

  void put(MailAddress address, Lease lease, MailMessage handedOut) {
    leases.put(handedOut.sendId().orElseThrow(), address, lease, handedOut, null);
  }

  /**
   * Ends a lease and returns its copy; empty when it ended already, or when the record's partition
   * moved to another member meanwhile (settling it here would change nothing).
   */
  Optional<MailMessage> release(MailAddress address, String key, String leaseId) {
    Optional<LeaseTable.Leased<Void>> released = leases.release(address, key, leaseId);
    if (released.isEmpty()) {
      return Optional.empty();
    }
    if (released.get().lease().isExpiredAt(clock.get())) {
      handOutAgain(address, released.get().copy()); // too late: the lease is over
      return Optional.empty();
    }
    AddressReader reader = readers.apply(address);
    return reader != null && reader.holds(key)
        ? Optional.of(released.get().copy())
        : Optional.empty();
  }

  List<InFlightCopy> inFlight(MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  /** Hands the records of expired leases out again; returns how many. Idempotent. */
  long reclaimExpired(MailAddress address) {
    AddressReader reader = readers.apply(address);
    for (LeaseTable.Leased<Void> entry : leases.entries(address)) {
      if (reader == null || !reader.holds(entry.key())) {
        leases.release(address, entry.key(), entry.lease().id());
      }
    }
    List<LeaseTable.Leased<Void>> expired = leases.takeExpired(address, clock.get());
    expired.forEach(entry -> handOutAgain(address, entry.copy()));
    return expired.size();
  }

  LeaseTable.Census census(MailAddress address) {
    return leases.census(address, clock.get());
  }

  Set<MailAddress> addresses() {
    return leases.addresses();
  }

  /** Forgets every lease: the provider stops, and the group reads their records again. */
  void clear() {
    leases.clear();
  }

  private void handOutAgain(MailAddress address, MailMessage copy) {
    AddressReader reader = readers.apply(address);
    if (reader != null) {
      reader.retryLater(copy.sendId().orElseThrow(), copy, Duration.ZERO, timer);
    }
  }
}
