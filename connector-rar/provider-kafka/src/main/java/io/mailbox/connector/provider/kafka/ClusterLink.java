package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The provider's administrative view of the cluster, through one {@link Admin} client: whether it
 * answers (a probe cached for the probe interval), which topics exist (created when configured),
 * where a new consumer group starts, how far a group lags, and the topics the provider owns. Every
 * call is bounded; a broker that does not answer makes calls fail with {@code MBX-2003}, never
 * hang.
 */
final class ClusterLink implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ClusterLink.class.getName());
  private static final Duration CALL_BOUND = Duration.ofSeconds(5);
  private static final Duration PROBE_BOUND = Duration.ofSeconds(2);
  private static final Duration FRESH_TOPIC_BOUND = Duration.ofSeconds(5);

  private final KafkaSettings settings;
  private final Clock clock;
  private final Admin admin;
  private final Set<String> knownTopics = ConcurrentHashMap.newKeySet();
  private final Set<String> startedGroups = ConcurrentHashMap.newKeySet();
  private final ShareGroups shareGroups;
  private volatile Instant probedAt = Instant.MIN;
  private volatile boolean lastProbe;

  ClusterLink(KafkaSettings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "mailbox-admin");
    properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) CALL_BOUND.toMillis());
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL_BOUND.toMillis());
    properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 2_000);
    this.admin = Admin.create(properties);
    this.shareGroups = new ShareGroups(this);
  }

  Admin admin() {
    return admin;
  }

  /** The share groups (queue addresses) of the provider. */
  ShareGroups shareGroups() {
    return shareGroups;
  }

  /** Whether the cluster answered a round trip within the probe interval (cached). */
  boolean reachable() {
    Instant now = clock.instant();
    if (probedAt.plus(settings.probeInterval()).isAfter(now)) {
      return lastProbe;
    }
    boolean answered;
    try {
      admin.describeCluster().nodes().get(PROBE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
      answered = true;
    } catch (ExecutionException | TimeoutException e) {
      answered = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      answered = false;
    }
    lastProbe = answered;
    probedAt = clock.instant();
    return answered;
  }

  /**
   * Makes sure {@code topic} exists: known, found, or created when {@code kafkaCreateTopics} is on.
   * An unknown topic is looked for again with backoff until the budget is spent, then refused with
   * {@code MBX-2006} naming the topic and the group.
   */
  void ensureTopic(MailAddress address, String topic, String group) {
    if (knownTopics.contains(topic)) {
      return;
    }
    Instant deadline = clock.instant().plus(settings.unknownTopicBudget());
    long pauseMillis = 100;
    while (true) {
      if (exists(topic)) {
        knownTopics.add(topic);
        return;
      }
      if (settings.createTopics()) {
        create(topic);
        knownTopics.add(topic);
        return;
      }
      if (!clock.instant().plus(Duration.ofMillis(pauseMillis)).isBefore(deadline)) {
        throw new MailboxException(
            ErrorCode.UNKNOWN_TOPIC,
            "Kafka has no topic "
                + topic
                + " for "
                + address
                + " (consumer group "
                + group
                + "), and kafkaCreateTopics is false: create the topic, or let the provider create"
                + " it. Looked for "
                + settings.unknownTopicBudget().toMillis()
                + " ms (kafkaUnknownTopicBudgetMillis); nothing was sent or read.");
      }
      sleep(pauseMillis);
      pauseMillis = Math.min(pauseMillis * 2, 1_000);
    }
  }

  private boolean exists(String topic) {
    try {
      call(admin.describeTopics(List.of(topic)).allTopicNames());
      return true;
    } catch (MailboxException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw e;
    }
  }

  private void create(String topic) {
    try {
      call(
          admin
              .createTopics(
                  List.of(new NewTopic(topic, settings.partitions(), settings.replicationFactor())))
              .all());
      LOG.info(
          () ->
              "Created Kafka topic "
                  + topic
                  + " ("
                  + settings.partitions()
                  + " partition(s), replication "
                  + settings.replicationFactor()
                  + ")");
    } catch (MailboxException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e;
      }
    }
  }

  /**
   * Gives a new consumer group its starting point: when the group has no committed offset on {@code
   * topic} at all, every partition starts at the current end, so the group reads what is posted
   * from now on and nothing earlier is replayed. A group that has offsets on the topic was started
   * before: a partition it has none for was added since (maybe while no server ran, with records
   * posted to it) and is read from its earliest record, never skipped. Done once per topic by this
   * provider, before its first post or read; a group with members already is left alone.
   */
  void startGroup(String topic, String group) {
    if (startedGroups.contains(topic)) {
      return;
    }
    // A topic created a moment ago may not be in the metadata of every broker yet (its partitions
    // unknown, no leader): that answer is retried for a short while, as Kafka's own clients do.
    Instant deadline = clock.instant().plus(FRESH_TOPIC_BOUND);
    while (true) {
      try {
        startGroupNow(topic, group);
        return;
      } catch (MailboxException e) {
        if (!(e.getCause() instanceof RetriableException) || clock.instant().isAfter(deadline)) {
          throw e;
        }
        sleep(50);
      }
    }
  }

  private void startGroupNow(String topic, String group) {
    List<TopicPartition> partitions = partitions(topic);
    if (!startedOn(committed(group), topic)) {
      Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
      ends(partitions).forEach((tp, end) -> start.put(tp, new OffsetAndMetadata(end)));
      try {
        call(admin.alterConsumerGroupOffsets(group, start).all());
      } catch (MailboxException e) {
        if (!(e.getCause() instanceof UnknownMemberIdException
            || e.getCause() instanceof GroupNotEmptyException)) {
          throw e; // not started: the next post or read tries again
        }
        // A member joined in between and holds the partitions: it read from the committed
        // offsets, or from the earliest record where there were none — nothing is skipped.
        LOG.fine(() -> "Group " + group + " has members already: " + e.getMessage());
      }
    }
    startedGroups.add(topic);
  }

  /**
   * Records of {@code topic} the group has not committed past; -1 when the cluster is not there.
   */
  long lag(String topic, String group) {
    try {
      return unread(topic, group).values().stream().mapToLong(OffsetSpan::size).sum();
    } catch (MailboxException e) {
      return -1;
    }
  }

  /** Whether the group has committed an offset on {@code topic}: it was started before. */
  private static boolean startedOn(Map<TopicPartition, OffsetAndMetadata> committed, String topic) {
    return committed.entrySet().stream()
        .anyMatch(e -> e.getKey().topic().equals(topic) && e.getValue() != null);
  }

  /**
   * Where the group reads each partition of {@code topic} next, up to the partition's end: its
   * committed offset, or where {@link #startGroup} starts a partition it never committed (the end
   * for a group not started yet, the earliest record for a partition added to a started group).
   * Throws the coded exception when the cluster does not answer.
   */
  Map<TopicPartition, OffsetSpan> unread(String topic, String group) {
    List<TopicPartition> partitions = partitions(topic);
    Map<TopicPartition, OffsetAndMetadata> committed = committed(group);
    boolean started = startedOn(committed, topic);
    Map<TopicPartition, Long> ends = ends(partitions);
    Map<TopicPartition, Long> starts = starts(partitions);
    Map<TopicPartition, OffsetSpan> unread = new HashMap<>();
    for (TopicPartition tp : partitions) {
      OffsetAndMetadata at = committed.get(tp);
      long notCommitted = started ? starts.get(tp) : ends.get(tp);
      long from = Math.max(at == null ? notCommitted : at.offset(), starts.get(tp));
      unread.put(tp, new OffsetSpan(from, ends.get(tp)));
    }
    return unread;
  }

  /**
   * How many records {@code topic} holds (its parked records, for one): 0 when the topic does not
   * exist (nothing was ever parked), -1 when the cluster is not there.
   */
  long size(String topic) {
    try {
      List<TopicPartition> partitions;
      try {
        partitions = partitions(topic); // one describe answers both: whether it exists, and where
      } catch (MailboxException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          return 0;
        }
        throw e;
      }
      Map<TopicPartition, Long> ends = ends(partitions);
      Map<TopicPartition, Long> starts = starts(partitions);
      return partitions.stream().mapToLong(tp -> ends.get(tp) - starts.get(tp)).sum();
    } catch (MailboxException e) {
      return -1;
    }
  }

  /** Whether {@code topic} exists, from what the provider found (no round trip when known). */
  boolean known(String topic) {
    return knownTopics.contains(topic);
  }

  /** The addresses of the provider's topics; none (logged at FINE) while the cluster is away. */
  Set<MailAddress> ownedAddresses(TopicNames names) {
    Set<MailAddress> addresses = new java.util.TreeSet<>();
    try {
      ownedTopics().forEach(topic -> names.address(topic).ifPresent(addresses::add));
    } catch (MailboxException unreachable) {
      LOG.fine(() -> "Kafka topics not listed: " + unreachable.getMessage());
    }
    return addresses;
  }

  /** The topics whose name starts with the provider's prefix. */
  Set<String> ownedTopics() {
    Set<String> names = call(admin.listTopics().names());
    return names.stream()
        .filter(name -> name.startsWith(settings.topicPrefix()))
        .collect(Collectors.toCollection(java.util.TreeSet::new));
  }

  /** Deletes every record of {@code topic} (all groups lose them); returns how many went. */
  long purge(String topic) {
    List<TopicPartition> partitions = partitions(topic);
    Map<TopicPartition, Long> ends = ends(partitions);
    Map<TopicPartition, Long> starts = starts(partitions);
    Map<TopicPartition, RecordsToDelete> deletions = new HashMap<>();
    long dropped = 0;
    for (TopicPartition tp : partitions) {
      if (ends.get(tp) > starts.get(tp)) {
        deletions.put(tp, RecordsToDelete.beforeOffset(ends.get(tp)));
        dropped += ends.get(tp) - starts.get(tp);
      }
    }
    if (!deletions.isEmpty()) {
      call(admin.deleteRecords(deletions).all());
    }
    return dropped;
  }

  List<TopicPartition> partitions(String topic) {
    TopicDescription description =
        call(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic);
    return description.partitions().stream()
        .map(p -> new TopicPartition(topic, p.partition()))
        .toList();
  }

  private Map<TopicPartition, OffsetAndMetadata> committed(String group) {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        call(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
    return offsets == null ? Map.of() : offsets;
  }

  Map<TopicPartition, Long> ends(List<TopicPartition> partitions) {
    return offsets(partitions, OffsetSpec.latest());
  }

  /** Each partition's earliest record still held (its end when it holds none). */
  Map<TopicPartition, Long> starts(List<TopicPartition> partitions) {
    return offsets(partitions, OffsetSpec.earliest());
  }

  private Map<TopicPartition, Long> offsets(List<TopicPartition> partitions, OffsetSpec spec) {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    partitions.forEach(tp -> request.put(tp, spec));
    Map<TopicPartition, ListOffsetsResultInfo> answer = call(admin.listOffsets(request).all());
    Map<TopicPartition, Long> offsets = new HashMap<>();
    answer.forEach((tp, info) -> offsets.put(tp, info.offset()));
    return offsets;
  }

  /** Waits for an admin call within the bound; its failure becomes a coded exception. */
  <T> T call(org.apache.kafka.common.KafkaFuture<T> future) {
    try {
      return future.get(CALL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw unavailable("failed: " + e.getCause().getClass().getSimpleName(), e.getCause());
    } catch (TimeoutException e) {
      throw unavailable("did not answer within " + CALL_BOUND.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("was interrupted", e);
    }
  }

  private MailboxException unavailable(String what, Throwable cause) {
    return new MailboxException(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "Kafka at " + settings.bootstrapServers() + " " + what + ".",
        cause);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MailboxException(ErrorCode.CONNECTION_UNAVAILABLE, "Interrupted.");
    }
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(2));
  }
}
