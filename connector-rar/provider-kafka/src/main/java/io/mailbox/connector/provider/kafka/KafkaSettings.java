package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.spi.ProviderSettings;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What the {@code kafka:} provider needs to know, checked before anything connects.
 *
 * @param bootstrapServers {@code host:port[,host:port...]} of the cluster
 * @param topicPrefix put before every topic name; the provider lists the topics with this prefix as
 *     its own
 * @param defaultGroup the consumer group of an address is {@code <defaultGroup>:<topic>}
 * @param publishTimeout how long a post waits for Kafka's acknowledgement ({@code acks=all})
 * @param createTopics whether the provider creates a missing topic (else an unknown topic is
 *     refused once the budget is spent)
 * @param partitions partitions of a topic the provider creates
 * @param replicationFactor replication factor of a topic the provider creates
 * @param unknownTopicBudget how long an unknown topic is retried before a post or read is refused
 * @param maxDeliveries deliveries a record gets before it is dead-lettered; 0 = no cap
 * @param probeInterval how long a reachability probe's answer is reused
 * @param queueAddresses the addresses read as a queue through a share group (KIP-932) instead of an
 *     ordered classic consumer group
 * @param queueBatch records a member of a queue address's share group acquires per poll (and holds
 *     locked until it settles them): more is faster, fewer shares a queue more evenly between
 *     members and holds less behind a slow handler
 */
public record KafkaSettings(
    String bootstrapServers,
    String topicPrefix,
    String defaultGroup,
    Duration publishTimeout,
    boolean createTopics,
    int partitions,
    short replicationFactor,
    Duration unknownTopicBudget,
    int maxDeliveries,
    Duration probeInterval,
    QueueAddresses queueAddresses,
    int queueBatch) {

  private static final Pattern SERVERS =
      Pattern.compile("[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5}(,[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5})*");
  private static final Pattern PREFIX = Pattern.compile("[a-zA-Z0-9._-]{0,64}");

  public KafkaSettings {
    if (bootstrapServers == null || !SERVERS.matcher(bootstrapServers.strip()).matches()) {
      throw ProviderSettings.invalid("kafkaBootstrapServers", "must be host:port[,host:port...]");
    }
    bootstrapServers = bootstrapServers.strip();
    if (topicPrefix == null || !PREFIX.matcher(topicPrefix).matches()) {
      throw ProviderSettings.invalid(
          "kafkaTopicPrefix", "must be at most 64 of a-z, A-Z, 0-9, '.', '_' and '-'");
    }
    if (defaultGroup == null
        || defaultGroup.isBlank()
        || defaultGroup.length() > 64
        || defaultGroup.chars().anyMatch(Character::isISOControl)) {
      throw ProviderSettings.invalid(
          "kafkaDefaultGroup", "must be 1 to 64 characters without control characters");
    }
    if (publishTimeout == null || publishTimeout.isNegative() || publishTimeout.isZero()) {
      throw ProviderSettings.invalid("kafkaPublishTimeoutMillis", "must be more than zero");
    }
    if (partitions < 1) {
      throw ProviderSettings.invalid("kafkaTopicPartitions", "must be 1 or more");
    }
    if (replicationFactor < 1) {
      throw ProviderSettings.invalid("kafkaReplicationFactor", "must be 1 to 32767");
    }
    if (unknownTopicBudget == null || unknownTopicBudget.isNegative()) {
      throw ProviderSettings.invalid("kafkaUnknownTopicBudgetMillis", "must be zero or more");
    }
    if (maxDeliveries < 0) {
      throw ProviderSettings.invalid("kafkaMaxDeliveries", "must be zero or more");
    }
    if (queueAddresses == null) {
      queueAddresses = QueueAddresses.none();
    }
    if (queueBatch < 1 || queueBatch > MAX_QUEUE_BATCH) {
      throw ProviderSettings.invalid("kafkaQueueBatch", "must be 1 to " + MAX_QUEUE_BATCH);
    }
  }

  /**
   * The highest a share group's per-partition lock limit may be set on a default Kafka 4.4 broker
   * ({@code group.share.max.partition.max.record.locks}); by default a partition locks at most
   * 2,000 records for all members together ({@code group.share.partition.max.record.locks}).
   */
  static final int MAX_QUEUE_BATCH = 4_000;

  /**
   * A local broker, prefix {@code mailbox.}, group {@code mailbox}, 15 s bound, no topic creation,
   * queue members acquiring 500 records a poll (Kafka's own {@code max.poll.records}).
   */
  public static KafkaSettings defaults() {
    return new KafkaSettings(
        "127.0.0.1:9092",
        "mailbox.",
        "mailbox",
        Duration.ofSeconds(15),
        false,
        1,
        (short) 1,
        Duration.ofSeconds(10),
        10,
        Duration.ofSeconds(2),
        QueueAddresses.none(),
        500);
  }

  public KafkaSettings withBootstrapServers(String servers) {
    return new KafkaSettings(
        servers,
        topicPrefix,
        defaultGroup,
        publishTimeout,
        createTopics,
        partitions,
        replicationFactor,
        unknownTopicBudget,
        maxDeliveries,
        probeInterval,
        queueAddresses,
        queueBatch);
  }

  public KafkaSettings withTopicCreation(int newPartitions) {
    return new KafkaSettings(
        bootstrapServers,
        topicPrefix,
        defaultGroup,
        publishTimeout,
        true,
        newPartitions,
        replicationFactor,
        unknownTopicBudget,
        maxDeliveries,
        probeInterval,
        queueAddresses,
        queueBatch);
  }

  public KafkaSettings withDefaultGroup(String group) {
    return new KafkaSettings(
        bootstrapServers,
        topicPrefix,
        group,
        publishTimeout,
        createTopics,
        partitions,
        replicationFactor,
        unknownTopicBudget,
        maxDeliveries,
        probeInterval,
        queueAddresses,
        queueBatch);
  }

  public KafkaSettings withUnknownTopicBudget(Duration budget) {
    return new KafkaSettings(
        bootstrapServers,
        topicPrefix,
        defaultGroup,
        publishTimeout,
        createTopics,
        partitions,
        replicationFactor,
        budget,
        maxDeliveries,
        probeInterval,
        queueAddresses,
        queueBatch);
  }

  public KafkaSettings withPublishTimeout(Duration timeout) {
    return new KafkaSettings(
        bootstrapServers,
        topicPrefix,
        defaultGroup,
        timeout,
        createTopics,
        partitions,
        replicationFactor,
        unknownTopicBudget,
        maxDeliveries,
        probeInterval,
        queueAddresses,
        queueBatch);
  }

  /**
   * The delivery cap of a queue address: {@code kafkaMaxDeliveries}, at most {@value
   * #SHARE_DELIVERY_LIMIT} - {@value #SPARE_SHARE_DELIVERIES} (0, no cap, means that much). The
   * share group's broker-side limit is set {@value #SPARE_SHARE_DELIVERIES} above it ({@link
   * #shareDeliveryLimit}): the broker archives a record at its limit where nobody sees it, so the
   * provider dead-letters at its cap and keeps spare deliveries for a dead-letter write that failed
   * and for deliveries it never saw (a lock that ran out, a consumer replaced).
   */
  public int queueDeliveryCap() {
    int most = SHARE_DELIVERY_LIMIT - SPARE_SHARE_DELIVERIES;
    return maxDeliveries == 0 ? most : Math.min(maxDeliveries, most);
  }

  /** The share group's {@code share.delivery.count.limit}. */
  int shareDeliveryLimit() {
    return queueDeliveryCap() + SPARE_SHARE_DELIVERIES;
  }

  static final int SPARE_SHARE_DELIVERIES = 3;

  /** The highest delivery limit a share group may have (Kafka 4.4's default ceiling). */
  static final int SHARE_DELIVERY_LIMIT = 10;

  public KafkaSettings withMaxDeliveries(int deliveries) {
    return new KafkaSettings(
        bootstrapServers,
        topicPrefix,
        defaultGroup,
        publishTimeout,
        createTopics,
        partitions,
        replicationFactor,
        unknownTopicBudget,
        deliveries,
        probeInterval,
        queueAddresses,
        queueBatch);
  }

  /** Every address matching one of {@code patterns} is read as a queue (a share group). */
  public KafkaSettings withQueueAddresses(String patterns) {
    return new KafkaSettings(
        bootstrapServers,
        topicPrefix,
        defaultGroup,
        publishTimeout,
        createTopics,
        partitions,
        replicationFactor,
        unknownTopicBudget,
        maxDeliveries,
        probeInterval,
        QueueAddresses.parse(patterns),
        queueBatch);
  }

  public KafkaSettings withQueueBatch(int records) {
    return new KafkaSettings(
        bootstrapServers,
        topicPrefix,
        defaultGroup,
        publishTimeout,
        createTopics,
        partitions,
        replicationFactor,
        unknownTopicBudget,
        maxDeliveries,
        probeInterval,
        queueAddresses,
        records);
  }
}
