package io.mailbox.connector.provider.amqp;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.provider.amqp.HeldDeliveries.Held;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;

/**
 * Fetches of the {@code amqp:} provider: a {@code basic.get} per copy, with auto-ack or under a
 * lease kept here ({@code leases}); an expired lease is returned to its queue (nack) by the
 * provider's sweeper, on the next fetch or by {@code recover}. A late settle of a returned lease
 * changes nothing.
 */
final class LeasedFetches {
  final LeaseTable<Held> leases = new LeaseTable<>();
  private final BrokerLink link;
  private final AmqpQueues queues;
  private final DeliveryReader reader;
  private final HeldDeliveries held;
  private final Clock clock;
  private final BiPredicate<MailAddress, MailMessage> givenUpAtDeliveryCap;

  LeasedFetches(
      BrokerLink link,
      AmqpQueues queues,
      DeliveryReader reader,
      HeldDeliveries held,
      Clock clock,
      BiPredicate<MailAddress, MailMessage> givenUpAtDeliveryCap) {
    this.link = link;
    this.queues = queues;
    this.reader = reader;
    this.held = held;
    this.clock = clock;
    this.givenUpAtDeliveryCap = givenUpAtDeliveryCap;
  }

  /** Takes up to {@code limit} copies; under {@code lease} unless it is null (auto-ack). */
  List<MailMessage> take(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    String queue = queues.declare(address);
    if (lease != null) {
      reclaimExpired(address);
    }
    List<MailMessage> taken = new ArrayList<>();
    while (taken.size() < limit) {
      BrokerLink.Fetched fetched = link.get(queue, lease == null);
      if (fetched.response() == null) {
        break;
      }
      MailMessage copy =
          reader.read(address, fetched.response().getProps(), fetched.response().getBody());
      Held delivery =
          new Held(fetched.channel(), fetched.response().getEnvelope().getDeliveryTag());
      String key = copy.sendId().orElseThrow();
      if (lease != null) {
        held.hold(key, delivery);
        if (givenUpAtDeliveryCap.test(address, copy)) {
          continue;
        }
        held.release(key);
      }
      MailMessage handedOut = handOut.apply(copy);
      if (lease != null) {
        leases.put(key, address, lease, handedOut, delivery);
      }
      taken.add(handedOut);
    }
    return taken;
  }

  /** The leased copy, held for its settlement; empty when unknown or too late (then returned). */
  Optional<MailMessage> release(MailAddress address, String key, String leaseId) {
    Optional<LeaseTable.Leased<Held>> released = leases.release(address, key, leaseId);
    if (released.isEmpty()) {
      return Optional.empty();
    }
    LeaseTable.Leased<Held> leased = released.get();
    if (leased.lease().isExpiredAt(clock.instant())) {
      // Too late: the lease is over, so the copy goes back to the queue and this settle is stale.
      leased.handle().nack();
      return Optional.empty();
    }
    held.hold(key, leased.handle());
    return Optional.of(leased.copy());
  }

  long reclaimExpired(MailAddress address) {
    List<LeaseTable.Leased<Held>> expired = leases.takeExpired(address, clock.instant());
    expired.forEach(leased -> leased.handle().nack());
    return expired.size();
  }
}
