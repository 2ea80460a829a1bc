package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The share groups (KIP-932) that read queue addresses, through the provider's admin client: where
 * a new one starts, its broker-side settings, and how far it lags. Every call is bounded ({@link
 * ClusterLink#call}).
 */
final class ShareGroups {
  private static final Logger LOG = Logger.getLogger(ShareGroups.class.getName());
  private static final Duration FRESH_TOPIC_BOUND = Duration.ofSeconds(5);

  private final ClusterLink cluster;
  private final Set<String> started = ConcurrentHashMap.newKeySet();

  ShareGroups(ClusterLink cluster) {
    this.cluster = cluster;
  }

  /**
   * Gives a new share group its starting point and settings, once per topic by this provider,
   * before its first post or read. A group with no state on the topic at all starts every partition
   * at the current end (nothing earlier is replayed, what is posted from now on is read). A group
   * with state was started before: a partition it has none for was added since (maybe while no
   * server ran, with records posted to it) and starts at its earliest record when a member is first
   * given it ({@code share.auto.offset.reset}), never skipped. The broker's delivery limit is
   * {@code deliveryCap + 1}: the provider dead-letters at the cap, the broker never archives a
   * record unseen.
   */
  synchronized void start(String topic, String group, int deliveryLimit) {
    if (started.contains(topic)) {
      return;
    }
    long deadline = System.nanoTime() + FRESH_TOPIC_BOUND.toNanos();
    while (true) {
      try {
        startNow(topic, group, deliveryLimit);
        started.add(topic);
        return;
      } catch (MailboxException e) {
        if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
          throw e; // not started: the next post or read tries again
        }
        sleep();
      }
    }
  }

  private void startNow(String topic, String group, int deliveryLimit) {
    if (state(group, topic).isEmpty()) {
      List<TopicPartition> partitions = cluster.partitions(topic);
      try {
        cluster.call(cluster.admin().alterShareGroupOffsets(group, cluster.ends(partitions)).all());
      } catch (MailboxException e) {
        if (!(e.getCause() instanceof GroupNotEmptyException)) {
          throw e;
        }
        // A member joined in between: the group started where the broker put it (earliest).
        LOG.fine(() -> "Share group " + group + " has members already");
      }
    }
    ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
    List<AlterConfigOp> settings =
        List.of(
            set("share.delivery.count.limit", Integer.toString(deliveryLimit)),
            set("share.auto.offset.reset", "earliest"));
    cluster.call(cluster.admin().incrementalAlterConfigs(Map.of(resource, settings)).all());
  }

  /**
   * Records of {@code topic} the share group has not settled; -1 when the cluster is not there.
   * Where the broker reports a partition's lag (its end less the start offset, less what was
   * acknowledged beyond it) that is taken; otherwise the span {@link #unread} gives.
   */
  long lag(String topic, String group) {
    try {
      Map<TopicPartition, SharePartitionOffsetInfo> state = new HashMap<>();
      Map<TopicPartition, OffsetSpan> unread = unread(topic, group, state);
      long lag = 0;
      for (Map.Entry<TopicPartition, OffsetSpan> span : unread.entrySet()) {
        SharePartitionOffsetInfo info = state.get(span.getKey());
        boolean reported = info != null && info.lag().isPresent();
        lag += Math.max(0, reported ? info.lag().get() : span.getValue().size());
      }
      return lag;
    } catch (MailboxException e) {
      return -1;
    }
  }

  /**
   * Where the share group's window starts in each partition of {@code topic} (its start offset:
   * records before it are settled) up to the partition's end. In a group not started yet nothing is
   * unread (it starts at the end); in a started group a partition without state (one added since)
   * is unread from its earliest record. Throws the coded exception when the cluster does not
   * answer.
   */
  Map<TopicPartition, OffsetSpan> unread(String topic, String group) {
    return unread(topic, group, new HashMap<>());
  }

  private Map<TopicPartition, OffsetSpan> unread(
      String topic, String group, Map<TopicPartition, SharePartitionOffsetInfo> stateOut) {
    List<TopicPartition> partitions = cluster.partitions(topic); // an unknown topic is refused
    Map<TopicPartition, SharePartitionOffsetInfo> state = state(group, topic);
    stateOut.putAll(state);
    Map<TopicPartition, OffsetSpan> unread = new HashMap<>();
    if (state.isEmpty()) {
      return unread;
    }
    Map<TopicPartition, Long> ends = cluster.ends(partitions);
    Map<TopicPartition, Long> starts = cluster.starts(partitions);
    for (TopicPartition tp : partitions) {
      SharePartitionOffsetInfo info = state.get(tp);
      // No start offset (an added partition, or one whose state the broker could not read): the
      // group reads it from the earliest record. Records deleted before the start are not there.
      long from = Math.max(info != null ? info.startOffset() : 0, starts.get(tp));
      unread.put(tp, new OffsetSpan(Math.min(from, ends.get(tp)), ends.get(tp)));
    }
    return unread;
  }

  /**
   * The group's state per partition of {@code topic} (a value may be null); none for a group that
   * does not exist.
   */
  private Map<TopicPartition, SharePartitionOffsetInfo> state(String group, String topic) {
    Map<TopicPartition, SharePartitionOffsetInfo> all;
    try {
      all =
          cluster.call(
              cluster
                  .admin()
                  .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                  .partitionsToOffsetInfo(group));
    } catch (MailboxException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return Map.of();
      }
      throw e;
    }
    // A partition listed without its offsets (null: the broker could not read its state, e.g.
    // while its state topic loads after a restart) is kept: the group has state there, it was
    // started, and moving it to the end would skip what it has not read.
    Map<TopicPartition, SharePartitionOffsetInfo> ofTopic = new HashMap<>();
    if (all != null) {
      all.forEach(
          (tp, info) -> {
            if (tp.topic().equals(topic)) {
              ofTopic.put(tp, info);
            }
          });
    }
    return ofTopic;
  }

  private static AlterConfigOp set(String name, String value) {
    return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
  }

  private static void sleep() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
