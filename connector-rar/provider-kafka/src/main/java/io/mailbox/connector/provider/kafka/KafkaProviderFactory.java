package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.time.Clock;
import java.util.List;

/**
 * Builds {@code kafka:} for the adapter (found through {@code META-INF/services}). Its settings go
 * in the adapter property {@code providerSettings}, for example {@code
 * kafkaBootstrapServers=broker:9092;kafkaCreateTopics=true}.
 */
public final class KafkaProviderFactory implements ProviderFactory<KafkaSettings> {
  static final Setting BOOTSTRAP_SERVERS =
      Setting.text(
          "kafkaBootstrapServers",
          KafkaSettings.defaults().bootstrapServers(),
          "kafka: the cluster, host:port[,host:port...].");
  static final Setting TOPIC_PREFIX =
      Setting.text(
          "kafkaTopicPrefix",
          KafkaSettings.defaults().topicPrefix(),
          "kafka: put before every topic name; topics with it are listed as the provider's.");
  static final Setting DEFAULT_GROUP =
      Setting.text(
          "kafkaDefaultGroup",
          KafkaSettings.defaults().defaultGroup(),
          "kafka: an address is read by the consumer group <kafkaDefaultGroup>:<topic>.");
  static final Setting PUBLISH_TIMEOUT =
      Setting.millis(
          "kafkaPublishTimeoutMillis",
          15_000,
          "kafka: how long a post waits for Kafka's acknowledgement (acks=all), in ms.");
  static final Setting CREATE_TOPICS =
      Setting.text(
          "kafkaCreateTopics",
          "false",
          "kafka: true = create a missing topic (kafkaTopicPartitions, kafkaReplicationFactor).");
  static final Setting PARTITIONS =
      Setting.integer("kafkaTopicPartitions", 1, "kafka: partitions of a topic it creates.");
  static final Setting REPLICATION_FACTOR =
      Setting.integer(
          "kafkaReplicationFactor", 1, "kafka: replication factor of a topic it creates.");
  static final Setting UNKNOWN_TOPIC_BUDGET =
      Setting.millis(
          "kafkaUnknownTopicBudgetMillis",
          10_000,
          "kafka: how long an unknown topic is retried before a post or read is refused, in ms.");
  static final Setting MAX_DELIVERIES =
      Setting.integer(
          "kafkaMaxDeliveries",
          10,
          "kafka: deliveries a record gets before it is dead-lettered (max-deliveries); 0 = no"
              + " cap.");
  static final Setting QUEUE_ADDRESSES =
      Setting.text(
          "kafkaQueueAddresses",
          "",
          "kafka: mailbox patterns (comma-separated, * = anything) read as a queue through a share"
              + " group (KIP-932: per-record locks, no partition order) instead of an ordered"
              + " consumer group.");
  static final Setting QUEUE_BATCH =
      Setting.integer(
          "kafkaQueueBatch",
          KafkaSettings.defaults().queueBatch(),
          "kafka: records a member of a queue address's share group acquires per poll and holds"
              + " locked until it settles them (1 to 4000): more is faster, fewer shares a queue"
              + " more evenly and holds less behind a slow handler.");

  @Override
  public String scheme() {
    return KafkaProvider.SCHEME;
  }

  @Override
  public List<Setting> settings() {
    return List.of(
        BOOTSTRAP_SERVERS,
        TOPIC_PREFIX,
        DEFAULT_GROUP,
        PUBLISH_TIMEOUT,
        CREATE_TOPICS,
        PARTITIONS,
        REPLICATION_FACTOR,
        UNKNOWN_TOPIC_BUDGET,
        MAX_DELIVERIES,
        QUEUE_ADDRESSES,
        QUEUE_BATCH);
  }

  @Override
  public KafkaSettings configure(ProviderSettings settings) {
    String create = settings.text(CREATE_TOPICS).strip();
    if (!create.equals("true") && !create.equals("false")) {
      throw ProviderSettings.invalid(CREATE_TOPICS, "must be true or false");
    }
    int replication = settings.integer(REPLICATION_FACTOR, 1);
    if (replication > Short.MAX_VALUE) {
      throw ProviderSettings.invalid(REPLICATION_FACTOR, "must be 1 to 32767");
    }
    return new KafkaSettings(
        settings.text(BOOTSTRAP_SERVERS),
        settings.text(TOPIC_PREFIX),
        settings.text(DEFAULT_GROUP),
        settings.positiveMillis(PUBLISH_TIMEOUT),
        Boolean.parseBoolean(create),
        settings.integer(PARTITIONS, 1),
        (short) replication,
        settings.millis(UNKNOWN_TOPIC_BUDGET),
        settings.integer(MAX_DELIVERIES, 0),
        KafkaSettings.defaults().probeInterval(),
        QueueAddresses.parse(settings.text(QUEUE_ADDRESSES)),
        settings.integer(QUEUE_BATCH, 1)); // at most MAX_QUEUE_BATCH: KafkaSettings checks it
  }

  @Override
  public Transport create(KafkaSettings settings, Scheduler scheduler) {
    return new KafkaProvider(settings, Clock.systemUTC(), scheduler);
  }
}
