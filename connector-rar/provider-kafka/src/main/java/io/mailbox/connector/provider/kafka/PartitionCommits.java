package io.mailbox.connector.provider.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions one member of a group holds now, each with its {@link OffsetWindow}, and their
 * commits: the settled prefix of each, asynchronously between polls, synchronously when a partition
 * is revoked or the reader closes. Owned by the reader's poll thread (the consumer is not
 * thread-safe); only {@link #settledNotCommitted()} is read from other threads.
 */
final class PartitionCommits {
  private static final Logger LOG = Logger.getLogger(PartitionCommits.class.getName());

  private final String topic;
  private final Duration syncBound;
  private final Map<TopicPartition, OffsetWindow> windows = new HashMap<>();
  private volatile long settledNotCommitted;
  // One past the highest offset handed out, per partition held: read by peeks on other threads.
  private final Map<Integer, Long> handedOutUpTo = new ConcurrentHashMap<>();
  // Offsets handed out, then queued again (put back, or waiting for a retry): peeks list them.
  private final Map<Integer, Set<Long>> queuedAgain = new ConcurrentHashMap<>();

  PartitionCommits(String topic, Duration syncBound) {
    this.topic = topic;
    this.syncBound = syncBound;
  }

  boolean holds(TopicPartition partition) {
    return windows.containsKey(partition);
  }

  /** The partitions held now (a copy). */
  java.util.List<TopicPartition> held() {
    return java.util.List.copyOf(windows.keySet());
  }

  /** The group gave this member {@code partition}; its next record is at {@code position}. */
  void assigned(TopicPartition partition, long position) {
    windows.put(partition, new OffsetWindow(position));
    handedOutUpTo.remove(partition.partition());
    queuedAgain.remove(partition.partition());
  }

  /** Marks a record handed out; false for one of a partition no longer held. */
  boolean handOut(TopicPartition partition, long offset) {
    OffsetWindow window = windows.get(partition);
    if (window == null) {
      return false;
    }
    window.handedOut(offset);
    handedOutUpTo.merge(partition.partition(), offset + 1, Math::max);
    Set<Long> again = queuedAgain.get(partition.partition());
    if (again != null) {
      again.remove(offset);
    }
    return true;
  }

  /** A record was settled: it no longer holds its partition's commit back (if still held). */
  void settled(TopicPartition partition, long offset) {
    OffsetWindow window = windows.get(partition);
    if (window != null) {
      window.settled(offset);
    }
  }

  /** A record handed out waits again (put back, or until its retry): no longer taken. */
  void queuedAgain(TopicPartition partition, long offset) {
    queuedAgain
        .computeIfAbsent(partition.partition(), p -> ConcurrentHashMap.newKeySet())
        .add(offset);
  }

  /**
   * Whether this member has the record in hand or settled it: records before the highest one handed
   * out of a partition it holds, except those queued again. Safe on any thread.
   */
  boolean handedOut(int partition, long offset) {
    Long upTo = handedOutUpTo.get(partition);
    if (upTo == null || offset >= upTo) {
      return false;
    }
    Set<Long> again = queuedAgain.get(partition);
    return again == null || !again.contains(offset);
  }

  /** The partitions went to another member: what is settled of them is no longer ours to commit. */
  void forget(Collection<TopicPartition> partitions) {
    partitions.forEach(
        partition -> {
          windows.remove(partition);
          handedOutUpTo.remove(partition.partition());
          queuedAgain.remove(partition.partition());
        });
    count();
  }

  /**
   * Commits every held partition's settled prefix: synchronously (bounded) or in the background.
   */
  void commitSettled(KafkaConsumer<byte[], byte[]> consumer, boolean sync) {
    commit(consumer, committable(windows.keySet()), sync);
  }

  /** Commits the settled prefix of {@code partitions} before they go (bounded, synchronous). */
  void commitBeforeRevoking(
      KafkaConsumer<byte[], byte[]> consumer, Collection<TopicPartition> gone) {
    commit(consumer, committable(gone), true);
  }

  /** Records settled whose offsets are not committed yet (Kafka still counts them as lag). */
  long settledNotCommitted() {
    return settledNotCommitted;
  }

  /** Recounts {@link #settledNotCommitted()}; after every change of a window. */
  void count() {
    long settled = 0;
    for (OffsetWindow window : windows.values()) {
      settled += window.settledNotCommitted();
    }
    settledNotCommitted = settled;
  }

  private Map<TopicPartition, OffsetAndMetadata> committable(
      Collection<TopicPartition> partitions) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition partition : partitions) {
      OffsetWindow window = windows.get(partition);
      if (window != null) {
        window.committable().ifPresent(upTo -> offsets.put(partition, new OffsetAndMetadata(upTo)));
      }
    }
    return offsets;
  }

  private void commit(
      KafkaConsumer<byte[], byte[]> consumer,
      Map<TopicPartition, OffsetAndMetadata> offsets,
      boolean sync) {
    if (offsets.isEmpty()) {
      return;
    }
    if (sync) {
      consumer.commitSync(offsets, syncBound);
      offsets.forEach((partition, at) -> committed(partition, at.offset()));
    } else {
      consumer.commitAsync(
          offsets,
          (done, failure) -> {
            if (failure == null) {
              done.forEach((partition, at) -> committed(partition, at.offset()));
            } else {
              // The next pass commits the same prefix (or more) again.
              LOG.fine(() -> "A commit of " + topic + " failed (retried): " + failure);
            }
          });
    }
  }

  private void committed(TopicPartition partition, long offset) {
    OffsetWindow window = windows.get(partition);
    if (window != null) {
      window.committed(offset);
    }
    count();
  }
}
