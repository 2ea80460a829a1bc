package io.mailbox.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The raw side of the Kafka consume comparisons: a plain {@code KafkaConsumer} poll loop of a group
 * of its own, and a plain {@code KafkaShareConsumer} of a share group of its own, each reading what
 * is already in a topic.
 */
final class RawKafkaConsumers {

  private RawKafkaConsumers() {}

  /** How long the last raw consume waited for its first record (its making, join, first fetch). */
  static double firstRecordMillis;

  static double consume(String servers, String topic, int count, boolean headers) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-raw-" + UUID.randomUUID());
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
    // Timed from before the consumer is made, as ours is timed from before its subscription (which
    // makes its consumer): raw's first record came 0-14 ms later with its making counted.
    long start = System.nanoTime();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      int seen = 0;
      long deadline = start + TimeUnit.SECONDS.toNanos(120);
      while (seen < count) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("raw consumer got " + seen);
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          if (seen == 0) {
            firstRecordMillis = (System.nanoTime() - start) / 1e6;
          }
          new String(record.value(), StandardCharsets.UTF_8); // the same decoding work as ours
          if (headers) { // what a consumer needing the ids (to de-duplicate) reads as well
            for (Header header : record.headers()) {
              header.key();
              new String(header.value(), StandardCharsets.UTF_8);
            }
          }
          seen++;
        }
        consumer.commitAsync();
      }
      double rate = count / OutboxBench.seconds(start);
      consumer.commitSync();
      return rate;
    }
  }

  /**
   * A raw share consumer (explicit acknowledgements) of a share group of its own that starts at the
   * earliest record: poll, decode, accept each, until {@code count}; the rate from its first record
   * (a new share group's start takes seconds on this broker; ours is counted from its first record
   * too).
   */
  static double shareConsume(String servers, String topic, int count) throws Exception {
    String group = "bench-raw-share-" + UUID.randomUUID();
    Properties admin = new Properties();
    admin.put("bootstrap.servers", servers);
    try (Admin client = Admin.create(admin)) {
      client
          .incrementalAlterConfigs(
              Map.of(
                  new ConfigResource(ConfigResource.Type.GROUP, group),
                  List.of(
                      new AlterConfigOp(
                          new ConfigEntry("share.auto.offset.reset", "earliest"),
                          AlterConfigOp.OpType.SET))))
          .all()
          .get();
    }
    Properties properties = new Properties();
    properties.put("bootstrap.servers", servers);
    properties.put("group.id", group);
    properties.put("share.acknowledgement.mode", "explicit");
    long created = System.nanoTime();
    long start = 0; // from its first record: a new share group's start takes seconds here
    try (KafkaShareConsumer<byte[], byte[]> consumer =
        new KafkaShareConsumer<>(
            properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      int seen = 0;
      long deadline = created + TimeUnit.SECONDS.toNanos(120);
      while (seen < count) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("raw share consumer got " + seen);
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          if (start == 0) {
            start = System.nanoTime();
          }
          new String(record.value(), StandardCharsets.UTF_8); // the same decoding work as ours
          consumer.acknowledge(record, AcknowledgeType.ACCEPT);
          seen++;
        }
      }
      double rate = count / OutboxBench.seconds(start);
      consumer.commitSync();
      return rate;
    }
  }
}
