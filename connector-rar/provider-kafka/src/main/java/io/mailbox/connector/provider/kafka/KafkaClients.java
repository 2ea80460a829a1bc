package io.mailbox.connector.provider.kafka;

import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The producer and consumers the provider uses, configured in one place. Serializers are passed as
 * instances: class names would be resolved through the thread's context class loader, which in a
 * resource adapter is the application's.
 */
final class KafkaClients {
  /** How long a single post waits for others to share its request. */
  static final int LINGER_MILLIS = 5;

  private KafkaClients() {}

  /**
   * Idempotent, {@code acks=all}: Kafka acknowledges a record once every in-sync replica has it,
   * and retries cannot duplicate or reorder it. A send gives up after the publish bound.
   */
  static KafkaProducer<byte[], byte[]> producer(
      KafkaSettings settings, String clientId, int lingerMillis) {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    properties.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.LINGER_MS_CONFIG, lingerMillis);
    long bound = settings.publishTimeout().toMillis();
    int requestTimeout = (int) Math.min(30_000, Math.max(1_000, bound));
    properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeout);
    // Kafka requires delivery.timeout >= linger + request timeout.
    properties.put(
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
        (int) Math.max(bound, requestTimeout + lingerMillis));
    properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, bound);
    return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /**
   * A member of {@code group} (the classic protocol) that commits only what the provider tells it
   * to, and starts a partition without a committed offset at its earliest record.
   */
  static KafkaConsumer<byte[], byte[]> consumer(KafkaSettings settings, String group) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    properties.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // Where a partition without a usable committed offset starts. New groups get their offsets
    // from ClusterLink.startGroup (the end, at first use); this only applies when those are gone
    // (expired, deleted records, partitions added): the earliest record, so that such a case
    // redelivers instead of skipping records nobody read.
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
    properties.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
    properties.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000);
    properties.put(
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(10).toMillis());
    return new KafkaConsumer<>(
        properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * A consumer of no group, for peeks: assigned partitions by hand, it commits nothing and joins
   * nothing, and reads at most one batch per partition per poll.
   */
  static KafkaConsumer<byte[], byte[]> peekConsumer(KafkaSettings settings) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    // One per provider: two providers in a JVM would clash on one client id's metrics.
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "mailbox-peek-" + PEEKERS.incrementAndGet());
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
    properties.put(
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(5).toMillis());
    return new KafkaConsumer<>(
        properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * A member of the share group {@code group} (KIP-932) that acknowledges each record explicitly
   * (accept, release) and acquires at most {@code kafkaQueueBatch} records per poll, so that no
   * more than that wait locked in its backlog while other members could take them. Kafka refuses
   * the next poll until each record of the last one is acknowledged, so the batch also sets how
   * many records one round trip to the broker carries: measured on this machine against a raw share
   * consumer on Kafka's defaults (500 a poll), 200 reached 0.29, 500 0.60 and 1,000 1.04
   * (docs/benchmarks.md).
   */
  static KafkaShareConsumer<byte[], byte[]> shareConsumer(KafkaSettings settings, String group) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    properties.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
    properties.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.queueBatch());
    properties.put(
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(10).toMillis());
    return new KafkaShareConsumer<>(
        properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  private static final java.util.concurrent.atomic.AtomicInteger PEEKERS =
      new java.util.concurrent.atomic.AtomicInteger();
}
