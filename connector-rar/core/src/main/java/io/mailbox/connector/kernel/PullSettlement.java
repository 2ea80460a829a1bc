package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.Ids;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.Leasing;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.SignalsArrivals;
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fetching, the pull side: auto-acknowledged copies, read-only peeks, or copies under a lease that
 * are settled later — once, by copy key and lease id, never by the sender's message id.
 */
final class PullSettlement {
  private final Transport transport;
  private final CapabilityGuard guard;
  private final Settlement settlement;
  private final TrafficCounters traffic;

  PullSettlement(
      Transport transport, CapabilityGuard guard, Settlement settlement, TrafficCounters traffic) {
    this.transport = transport;
    this.guard = guard;
    this.settlement = settlement;
    this.traffic = traffic;
  }

  /** Options were validated when built; capabilities are checked here, before anything is taken. */
  List<Delivery> fetch(MailAddress address, FetchOptions options) {
    if (options.peek()) {
      guard.requireAt(Capabilities.PEEK, address);
      return ((Peeking) transport)
          .peekQueued(address, options.limit()).stream()
              .<Delivery>map(copy -> new FetchedDeliveries.Settled(address, copy))
              .toList();
    }
    if (!options.manualAck()) {
      List<MailMessage> taken =
          transport.takeQueued(address, options.limit(), null, Stamps::handOut);
      TrafficCounters.Counts counts = traffic.of(address);
      counts.delivered(taken.size());
      counts.acknowledged(taken.size()); // taken without a lease: settled as it is handed out
      return taken.stream()
          .<Delivery>map(copy -> new FetchedDeliveries.Settled(address, copy))
          .toList();
    }
    guard.require(Capabilities.LEASE);
    Duration timeout = options.effectiveAckTimeout();
    // One lease per copy, starting when that copy is handed out: each can be settled (or
    // reclaimed) on its own, and a slow multi-message fetch never re-takes its own early copies.
    List<Leasing.LeasedCopy> taken =
        ((Leasing) transport)
            .takeLeased(
                address,
                options.limit(),
                () -> {
                  Instant now = transport.clock().instant();
                  return new Lease(Ids.next(), now, timeout.isZero() ? null : now.plus(timeout));
                },
                Stamps::handOut);
    traffic.of(address).delivered(taken.size());
    List<Delivery> deliveries = new ArrayList<>(taken.size());
    for (Leasing.LeasedCopy leased : taken) {
      deliveries.add(new FetchedDeliveries.Leased(this, address, leased.copy(), leased.lease()));
    }
    return deliveries;
  }

  /**
   * Runs {@code signal} once {@code address} has a queued copy, at once when it has one now ({@code
   * arrival-signal}, checked before anything is armed); returns what cancels it.
   */
  Runnable onNextArrival(MailAddress address, Runnable signal) {
    guard.requireAt(Capabilities.ARRIVAL_SIGNAL, address);
    return ((SignalsArrivals) transport).onNextArrival(address, signal);
  }

  /**
   * Settles a leased copy.
   *
   * @return true when it took effect; false, changing nothing, when the lease is unknown, was
   *     reclaimed, belongs to another hand-out, or was already settled
   */
  boolean settle(MailAddress address, String key, String leaseId, Disposition disposition) {
    guard.requireDisposition(disposition);
    if (key == null || leaseId == null || !(transport instanceof Leasing leasing)) {
      return false;
    }
    Optional<MailMessage> released = leasing.releaseLease(address, key, leaseId);
    released.ifPresent(copy -> settlement.apply(address, copy, disposition));
    return released.isPresent();
  }

  void requireDisposition(Disposition disposition) {
    guard.requireDisposition(disposition);
  }
}
