package io.mailbox.connector.provider.nats;

import static io.mailbox.connector.provider.nats.NatsProvider.SCHEME;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.LeaseTable;
import io.nats.client.api.ConsumerInfo;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What an operator sees of a {@code nats:} address, from its durable consumer's numbers: unread =
 * messages not delivered yet ({@code num_pending}) plus those delivered and not acknowledged that
 * are not in flight here (nak'ed and waiting to be delivered again, or held by another server) and
 * not acknowledged here a moment ago (a batch's acknowledgements are confirmed together); in flight
 * = what this server holds (leases, subscriber deliveries, broadcasts being settled); the parked
 * records of {@code <subject>.parked} counted by the stream. Offline while the server does not
 * answer its (cached, bounded) probe; unknown when the address has no consumer yet.
 */
final class NatsStatus {
  private final NatsLink link;
  private final SubjectNames names;
  private final String group;
  private final StoredViews views;

  NatsStatus(NatsLink link, SubjectNames names, String group, StoredViews views) {
    this.link = link;
    this.names = names;
    this.group = group;
    this.views = views;
  }

  AddressStatus of(
      MailAddress address,
      LeaseTable.Census leased,
      long heldHere,
      long unconfirmed,
      long broadcasts,
      int subscribers,
      long droppedHeaders,
      Instant lastActivity) {
    String consumer = names.consumer(group, address);
    long here = leased.inFlight() + heldHere;
    long inFlight = Math.max(here, leased.inFlight() + broadcasts);
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".subject", names.subject(address));
    extensions.put(SCHEME + ".consumer", consumer);
    extensions.put(SCHEME + ".subscriberCount", subscribers);
    extensions.put(SCHEME + ".overdueInFlightCount", leased.overdue());
    extensions.put(SCHEME + ".droppedHeaders", droppedHeaders);
    if (!link.reachable()) {
      return offline(address, inFlight, lastActivity, extensions);
    }
    Optional<ConsumerInfo> info;
    long parked;
    try {
      info = link.consumers().info(consumer);
      parked = info.isEmpty() ? 0 : views.parkedCount(address);
    } catch (MailboxException away) { // gone since the (cached) probe, or hung
      return offline(address, inFlight, lastActivity, extensions);
    }
    extensions.put(SCHEME + ".reachable", true);
    if (info.isEmpty()) {
      return AddressStatus.unknown(address);
    }
    long pending = info.get().getNumPending();
    long ackPending = info.get().getNumAckPending();
    extensions.put(SCHEME + ".numPending", pending);
    extensions.put(SCHEME + ".numAckPending", ackPending);
    extensions.put(SCHEME + ".redelivered", info.get().getRedelivered());
    extensions.put(SCHEME + ".parkedCount", parked);
    return new AddressStatus(
        address,
        AddressState.ONLINE,
        true,
        pending + Math.max(0, ackPending - here - unconfirmed),
        inFlight,
        lastActivity,
        extensions);
  }

  private static AddressStatus offline(
      MailAddress address, long inFlight, Instant lastActivity, Map<String, Object> extensions) {
    extensions.put(SCHEME + ".reachable", false);
    return new AddressStatus(
        address, AddressState.OFFLINE, null, 0, inFlight, lastActivity, extensions);
  }
}
