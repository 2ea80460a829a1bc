package io.mailbox.connector.provider.kafka;

import static io.mailbox.connector.provider.kafka.KafkaProvider.SCHEME;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.LeaseTable;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an operator sees of a {@code kafka:} address: unread = the default group's lag (records not
 * committed; for a queue address, its share group's records not acknowledged) less what this
 * process handed out or settled and has not committed yet; in flight = records handed out here and
 * not settled (leased fetches included; overdue leases counted apart), plus broadcasts being
 * settled; the parked count is the size of {@code <topic>_parked}. Offline while the cluster does
 * not answer its (cached, bounded) probe; unknown when the topic does not exist.
 */
final class KafkaStatus {
  private final ClusterLink cluster;
  private final TopicNames names;
  private final String defaultGroup;

  KafkaStatus(ClusterLink cluster, TopicNames names, String defaultGroup) {
    this.cluster = cluster;
    this.names = names;
    this.defaultGroup = defaultGroup;
  }

  AddressStatus of(
      MailAddress address,
      boolean queue,
      AddressReader reader,
      long broadcasts,
      LeaseTable.Census leased,
      int subscribers,
      long droppedHeaders,
      Instant lastActivity) {
    String topic = names.topic(address);
    String group = names.groupOf(address, defaultGroup);
    long handedOut = reader == null ? 0 : reader.inFlight();
    long inFlight = Math.max(handedOut, broadcasts);
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".topic", topic);
    extensions.put(SCHEME + ".group", group);
    extensions.put(SCHEME + ".model", queue ? "queue" : "ordered");
    extensions.put(SCHEME + ".subscriberCount", subscribers);
    extensions.put(SCHEME + ".overdueInFlightCount", leased.overdue());
    extensions.put(SCHEME + ".droppedHeaders", droppedHeaders);
    extensions.put(SCHEME + ".waitingForRetryCount", reader == null ? 0 : reader.waitingForRetry());
    if (cluster == null || !cluster.reachable()) {
      extensions.put(SCHEME + ".reachable", false);
      return new AddressStatus(
          address, AddressState.OFFLINE, null, 0, inFlight, lastActivity, extensions);
    }
    extensions.put(SCHEME + ".reachable", true);
    // Read before and after the lag: a commit landing while the admin calls run makes the lag the
    // old or the new one, and the larger count covers both (else a settled record shows unread).
    long notCommittedBefore = notCommitted(reader);
    long lag = queue ? cluster.shareGroups().lag(topic, group) : cluster.lag(topic, group);
    if (lag < 0) {
      return lastActivity == null
          ? AddressStatus.unknown(address)
          : new AddressStatus(
              address, AddressState.OFFLINE, null, 0, inFlight, lastActivity, extensions);
    }
    long notCommitted = Math.max(notCommittedBefore, notCommitted(reader));
    extensions.put(SCHEME + ".lag", lag);
    long parked = cluster.size(names.parkedTopic(address));
    if (parked >= 0) {
      extensions.put(SCHEME + ".parkedCount", parked);
    }
    return new AddressStatus(
        address,
        AddressState.ONLINE,
        true,
        Math.max(0, lag - notCommitted),
        inFlight,
        lastActivity,
        extensions);
  }

  /** Handed out, then settled: read in this order, a record moving between them counts twice. */
  private static long notCommitted(AddressReader reader) {
    return reader == null ? 0 : reader.inFlight() + reader.settledNotCommitted();
  }
}
