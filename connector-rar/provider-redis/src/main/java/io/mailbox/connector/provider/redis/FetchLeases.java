package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.provider.redis.HeldEntries.Held;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import redis.clients.jedis.StreamEntryID;

/**
 * The entries fetched under a lease, kept here (Redis has no leases of its own: an entry is only
 * pending with a consumer). A leased entry is marked held, so no reclaim pass of this process takes
 * it, and is touched with the held ones, so no other process does. An expired lease hands its entry
 * back at once (for the next fetch); a release in time makes it held until it is settled.
 */
final class FetchLeases {
  private final LeaseTable<Held> leases = new LeaseTable<>();
  private final HeldEntries held;
  private final GroupReads reads;
  private final Admission admission;
  private final Clock clock;

  FetchLeases(HeldEntries held, GroupReads reads, Admission admission, Clock clock) {
    this.held = held;
    this.reads = reads;
    this.admission = admission;
    this.clock = clock;
  }

  /**
   * A fetch of up to {@code limit} entries of stream {@code key}: those idle past the lease first
   * (when a reclaim pass is due), then new ones. Each is admitted (one past the delivery cap is
   * dead-lettered, not handed out), then leased, or without a lease acknowledged at once.
   */
  List<MailMessage> take(
      MailAddress address, String key, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    List<GroupReads.Taken> batch = new ArrayList<>(reads.reclaimIfDue(key, limit));
    if (batch.size() < limit) {
      batch.addAll(reads.takeNew(key, limit - batch.size()));
    }
    List<MailMessage> taken = new ArrayList<>(batch.size());
    List<StreamEntryID> autoAcked = new ArrayList<>();
    for (GroupReads.Taken entry : batch) {
      Optional<MailMessage> admitted = admission.admit(address, key, entry);
      if (admitted.isEmpty()) {
        continue;
      }
      MailMessage copy = admitted.get();
      Held handle = held.release(copy).orElseThrow();
      MailMessage handedOut = handOut.apply(copy);
      if (lease != null) {
        put(handedOut, lease, handle);
      } else {
        autoAcked.add(handle.id()); // auto-ack: settled at once
      }
      taken.add(handedOut);
    }
    reads.ack(key, autoAcked);
    return taken;
  }

  /** {@code copy}, taken from entry {@code handle}, is in flight under {@code lease}. */
  void put(MailMessage handedOut, Lease lease, Held handle) {
    held.markLeased(handle.key(), handle.id());
    leases.put(handedOut.sendId().orElseThrow(), handle.address(), lease, handedOut, handle);
  }

  /** Ends a lease: the copy, now held until it is settled, or empty when it was too late. */
  Optional<MailMessage> release(MailAddress address, String key, String leaseId) {
    Optional<LeaseTable.Leased<Held>> released = leases.release(address, key, leaseId);
    if (released.isEmpty()) {
      return Optional.empty();
    }
    LeaseTable.Leased<Held> leased = released.get();
    Held handle = leased.handle();
    if (leased.lease().isExpiredAt(clock.instant())) {
      handBack(handle); // too late: for the next fetch
      return Optional.empty();
    }
    held.hold(leased.copy(), handle);
    return Optional.of(leased.copy());
  }

  List<InFlightCopy> inFlight(MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  LeaseTable.Census census(MailAddress address) {
    return leases.census(address, clock.instant());
  }

  /** Hands the entries of expired leases back; returns how many. */
  long reclaimExpired(MailAddress address) {
    List<LeaseTable.Leased<Held>> expired = leases.takeExpired(address, clock.instant());
    expired.forEach(leased -> handBack(leased.handle()));
    return expired.size();
  }

  Set<MailAddress> addresses() {
    return leases.addresses();
  }

  /** Adds the leased entries, by stream, to {@code here} (to be touched). */
  void collect(Map<String, List<StreamEntryID>> here) {
    for (MailAddress address : leases.addresses()) {
      for (LeaseTable.Leased<Held> leased : leases.entries(address)) {
        here.computeIfAbsent(leased.handle().key(), k -> new ArrayList<>())
            .add(leased.handle().id());
      }
    }
  }

  /** Hands every leased entry back (the provider stops); returns how many. */
  int handBackAll() {
    List<LeaseTable.Leased<Held>> all = leases.takeAll();
    all.forEach(leased -> handBack(leased.handle()));
    return all.size();
  }

  /** Forgets every lease without touching Redis (the streams were deleted). */
  void clear() {
    leases.clear();
  }

  private void handBack(Held handle) {
    held.unmarkLeased(handle.key(), handle.id());
    reads.requeue(handle.key(), handle.id(), 0);
  }
}
