package io.mailbox.connector.provider.redis;

import static io.mailbox.connector.provider.redis.RedisProvider.SCHEME;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.LeaseTable;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import redis.clients.jedis.resps.StreamGroupInfo;

/**
 * What an operator sees of a {@code redis:} address, from its group's numbers ({@code XINFO
 * GROUPS}): unread = entries the group was not given yet (its lag) plus pending entries not in
 * flight here (handed back for a retry, or held by another process) and not acknowledged here a
 * moment ago; in flight = what this process holds (leases, subscriber deliveries, broadcasts being
 * settled). Offline while Redis does not answer its (cached, bounded) probe; unknown while the
 * address has no stream and group yet.
 */
final class RedisStatus {
  private final RedisLink link;
  private final StreamKeys keys;
  private final ConsumerGroups groups;
  private final StreamViews views;

  RedisStatus(RedisLink link, StreamKeys keys, ConsumerGroups groups, StreamViews views) {
    this.link = link;
    this.keys = keys;
    this.groups = groups;
    this.views = views;
  }

  /** What this process knows of an address beside Redis's numbers. */
  record Here(
      LeaseTable.Census leased,
      long held,
      long unsentAcks,
      long broadcasts,
      int subscribers,
      long droppedFields,
      Instant lastActivity) {}

  /** The addresses used here and, while Redis answers, every stream of the provider's there. */
  Set<MailAddress> listed(Set<MailAddress> usedHere) {
    Set<MailAddress> listed = new TreeSet<>(usedHere);
    if (link.reachable()) {
      listed.addAll(views.existing());
    }
    return listed;
  }

  AddressStatus of(MailAddress address, Here here) {
    String key = keys.stream(address);
    long mine = here.leased().inFlight() + here.held();
    long inFlight = Math.max(mine, here.leased().inFlight() + here.broadcasts());
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".stream", key);
    extensions.put(SCHEME + ".group", groups.group());
    extensions.put(SCHEME + ".consumer", groups.consumer());
    extensions.put(SCHEME + ".subscriberCount", here.subscribers());
    extensions.put(SCHEME + ".overdueInFlightCount", here.leased().overdue());
    extensions.put(SCHEME + ".droppedFields", here.droppedFields());
    if (!link.reachable()) {
      extensions.put(SCHEME + ".reachable", false);
      return new AddressStatus(
          address, AddressState.OFFLINE, null, 0, inFlight, here.lastActivity(), extensions);
    }
    extensions.put(SCHEME + ".reachable", true);
    Optional<StreamGroupInfo> group = groups.info(key);
    if (group.isEmpty()) {
      return AddressStatus.unknown(address);
    }
    long pending = group.get().getPending();
    Object reported = group.get().getGroupInfo().get("lag");
    long lag =
        reported instanceof Number number
            ? number.longValue()
            : views.countedLag(key, group.get().getLastDeliveredId());
    extensions.put(SCHEME + ".lag", lag);
    extensions.put(SCHEME + ".pending", pending);
    extensions.put(SCHEME + ".length", views.length(key));
    extensions.put(SCHEME + ".parkedCount", views.length(keys.parked(address)));
    return new AddressStatus(
        address,
        AddressState.ONLINE,
        true,
        lag + Math.max(0, pending - mine - here.unsentAcks()),
        inFlight,
        here.lastActivity(),
        extensions);
  }
}
