package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Reads what waits at an address without taking it: a consumer of no group (it commits nothing and
 * joins nothing, so no member of the address's group notices it) is assigned the topic's partitions
 * and placed where the group reads next — the classic group's committed offsets, or the share
 * group's start offsets — and reads up to each partition's end as it was when the peek began.
 * Records this server's reader has in hand, or settled and not yet recorded by the broker, are
 * skipped ({@link AddressReader#taken}). A log cannot show what other servers hold, so records they
 * have in hand show as waiting (docs/providers.md, "kafka:").
 *
 * <p>One consumer serves every peek, one peek at a time; each peek is bounded in time and in
 * records read.
 */
final class TopicPeek implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(TopicPeek.class.getName());
  private static final Duration BOUND = Duration.ofSeconds(3);
  private static final Duration POLL = Duration.ofMillis(100);

  private final KafkaSettings settings;
  private final ClusterLink cluster;
  private final TopicNames names;
  private KafkaConsumer<byte[], byte[]> consumer; // made at the first peek; guarded by this
  private boolean closed; // guarded by this

  TopicPeek(KafkaSettings settings, ClusterLink cluster, TopicNames names) {
    this.settings = settings;
    this.cluster = cluster;
    this.names = names;
  }

  /**
   * Up to {@code limit} copies of what waits at {@code address} for its group (a share group for a
   * {@code queue} address) and {@code reader} (null: none here) has not taken, oldest first (by
   * send time, then partition and offset). A peek that runs out of time returns what it read.
   */
  List<MailMessage> peek(MailAddress address, boolean queue, AddressReader reader, int limit) {
    String topic = names.topic(address);
    String group = names.groupOf(address, settings.defaultGroup());
    Map<TopicPartition, OffsetSpan> unread;
    try {
      unread = queue ? cluster.shareGroups().unread(topic, group) : cluster.unread(topic, group);
    } catch (MailboxException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return List.of(); // an address never posted to: nothing waits
      }
      throw e;
    }
    return read(address, unread, reader, limit); // the admin calls above run outside the lock
  }

  /**
   * Up to {@code limit} copies of the records {@code topic} keeps (a topic no group reads, like the
   * parked records of {@code address}), oldest first; none when the topic does not exist.
   */
  List<MailMessage> stored(MailAddress address, String topic, int limit) {
    Map<TopicPartition, OffsetSpan> kept = new HashMap<>();
    try {
      List<TopicPartition> partitions = cluster.partitions(topic);
      Map<TopicPartition, Long> starts = cluster.starts(partitions);
      Map<TopicPartition, Long> ends = cluster.ends(partitions);
      partitions.forEach(tp -> kept.put(tp, new OffsetSpan(starts.get(tp), ends.get(tp))));
    } catch (MailboxException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return List.of(); // nothing was ever kept there
      }
      throw e;
    }
    return read(address, kept, null, limit);
  }

  private synchronized List<MailMessage> read(
      MailAddress address,
      Map<TopicPartition, OffsetSpan> unread,
      AddressReader reader,
      int limit) {
    if (closed) {
      throw new MailboxException(ErrorCode.CONNECTION_UNAVAILABLE, "The kafka: provider stopped.");
    }
    Map<TopicPartition, OffsetSpan> waiting = new HashMap<>();
    unread.forEach(
        (tp, span) -> {
          if (span.size() > 0) {
            waiting.put(tp, span);
          }
        });
    if (waiting.isEmpty() || limit <= 0) {
      return List.of();
    }
    List<ConsumerRecord<byte[], byte[]>> found = readRecords(waiting, reader, limit);
    found.sort(
        Comparator.<ConsumerRecord<byte[], byte[]>>comparingLong(ConsumerRecord::timestamp)
            .thenComparingInt(ConsumerRecord::partition)
            .thenComparingLong(ConsumerRecord::offset));
    return found.stream()
        .limit(limit)
        .map(record -> KafkaRecords.readSafely(address, record).copy())
        .toList();
  }

  /** Up to {@code limit} records not taken of each partition, each read up to its span's end. */
  private List<ConsumerRecord<byte[], byte[]>> readRecords(
      Map<TopicPartition, OffsetSpan> waiting, AddressReader reader, int limit) {
    KafkaConsumer<byte[], byte[]> peeking = consumer();
    peeking.assign(waiting.keySet());
    waiting.forEach((tp, span) -> peeking.seek(tp, span.from()));
    Map<TopicPartition, Integer> kept = new HashMap<>();
    List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
    long deadline = System.nanoTime() + BOUND.toNanos();
    try {
      while (!waiting.isEmpty()) {
        if (System.nanoTime() > deadline) {
          LOG.fine(() -> "A peek stopped at its bound of " + BOUND.toMillis() + " ms");
          break;
        }
        for (ConsumerRecord<byte[], byte[]> record : peeking.poll(POLL)) {
          TopicPartition tp = new TopicPartition(record.topic(), record.partition());
          OffsetSpan span = waiting.get(tp);
          if (span == null || record.offset() >= span.end()) {
            continue; // done with that partition; a later record of a poll already made
          }
          if (reader == null || !reader.taken(record.partition(), record.offset())) {
            found.add(record);
            kept.merge(tp, 1, Integer::sum);
          }
        }
        for (TopicPartition tp : List.copyOf(waiting.keySet())) {
          if (kept.getOrDefault(tp, 0) >= limit || peeking.position(tp) >= waiting.get(tp).end()) {
            waiting.remove(tp);
            peeking.pause(List.of(tp));
          }
        }
      }
    } finally {
      peeking.assign(List.of()); // nothing left assigned between peeks: no fetches in between
    }
    return found;
  }

  private KafkaConsumer<byte[], byte[]> consumer() {
    if (consumer == null) {
      consumer = KafkaClients.peekConsumer(settings);
    }
    return consumer;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(2));
      consumer = null;
    }
  }
}
