package io.mailbox.connector.provider.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions one member of a group holds now, each with its {@link OffsetWindow}, and their
 * commits: the settled prefix of each, asynchronously between polls, synchronously when a partition
 * is revoked or the reader closes. Owned by the reader's poll thread (the consumer is not
 * thread-safe); other threads read only {@link #settledNotCommitted()}, {@link #handedOut(int,
 * long)} and mark records {@link #queuedAgain}.
 */
final class PartitionCommits {
  private static final Logger LOG = Logger.getLogger(PartitionCommits.class.getName());

  private final String topic;
  private final Duration syncBound;
  private final LongSupplier nanoTime;
  // A commit costs the poll thread ~0.2 ms (request and answer): one per turn of its loop was 15 %
  // of its time. Settled records wait at most 20 ms for theirs (a crash redelivers them: at least
  // once, as any record after the last commit).
  private final AtMostEvery commits = new AtMostEvery(AtMostEvery.COMMIT_NANOS);
  private final Map<TopicPartition, Held> held = new HashMap<>();
  private volatile long settledNotCommitted;
  // The same partitions' reach by number, for peeks on other threads.
  private final Map<Integer, Reach> reaches = new ConcurrentHashMap<>();

  /** A partition held: its window (poll thread only) and its reach (read by any thread). */
  private record Held(OffsetWindow window, Reach reach) {}

  /** How far this member has read a partition held, as peeks on other threads see it. */
  private static final class Reach {
    // One past the highest offset handed out.
    private volatile long handedOutUpTo;
    // Offsets handed out, then queued again (put back, or waiting for a retry): peeks list them.
    private final Set<Long> queuedAgain = ConcurrentHashMap.newKeySet();
  }

  PartitionCommits(String topic, Duration syncBound) {
    this(topic, syncBound, System::nanoTime);
  }

  /** With a clock of the test's for the commit interval. */
  PartitionCommits(String topic, Duration syncBound, LongSupplier nanoTime) {
    this.topic = topic;
    this.syncBound = syncBound;
    this.nanoTime = nanoTime;
  }

  boolean holds(TopicPartition partition) {
    return held.containsKey(partition);
  }

  /** The partitions held now (a copy). */
  java.util.List<TopicPartition> held() {
    return java.util.List.copyOf(held.keySet());
  }

  /** The group gave this member {@code partition}; its next record is at {@code position}. */
  void assigned(TopicPartition partition, long position) {
    Reach reach = new Reach();
    held.put(partition, new Held(new OffsetWindow(position), reach));
    reaches.put(partition.partition(), reach);
  }

  /** Marks a record handed out; false for one of a partition no longer held. */
  boolean handOut(TopicPartition partition, long offset) {
    Held partitionHeld = held.get(partition);
    if (partitionHeld == null) {
      return false;
    }
    partitionHeld.window().handedOut(offset);
    Reach reach = partitionHeld.reach();
    if (offset >= reach.handedOutUpTo) {
      reach.handedOutUpTo = offset + 1; // written by this thread only
    }
    if (!reach.queuedAgain.isEmpty()) {
      reach.queuedAgain.remove(offset);
    }
    return true;
  }

  /** A record was settled: it no longer holds its partition's commit back (if still held). */
  void settled(TopicPartition partition, long offset) {
    Held partitionHeld = held.get(partition);
    if (partitionHeld != null) {
      partitionHeld.window().settled(offset);
    }
  }

  /** A record handed out waits again (put back, or until its retry): no longer taken. */
  void queuedAgain(TopicPartition partition, long offset) {
    Reach reach = reaches.get(partition.partition());
    if (reach != null) { // else no longer held: peeks do not count it as taken anyway
      reach.queuedAgain.add(offset);
    }
  }

  /**
   * Whether this member has the record in hand or settled it: records before the highest one handed
   * out of a partition it holds, except those queued again. Safe on any thread.
   */
  boolean handedOut(int partition, long offset) {
    Reach reach = reaches.get(partition);
    return reach != null && offset < reach.handedOutUpTo && !reach.queuedAgain.contains(offset);
  }

  /** The partitions went to another member: what is settled of them is no longer ours to commit. */
  void forget(Collection<TopicPartition> partitions) {
    partitions.forEach(
        partition -> {
          held.remove(partition);
          reaches.remove(partition.partition());
        });
    count();
  }

  /**
   * Commits every held partition's settled prefix: synchronously (bounded) or in the background.
   */
  void commitSettled(Consumer<byte[], byte[]> consumer, boolean sync) {
    commit(consumer, committable(held.keySet()), sync);
  }

  /** {@link #commitSettled} in the background, at most once per 20 ms (between polls). */
  void commitSettledNowAndThen(Consumer<byte[], byte[]> consumer) {
    if (commits.due(nanoTime.getAsLong())) {
      commitSettled(consumer, false);
    }
  }

  /** Commits the settled prefix of {@code partitions} before they go (bounded, synchronous). */
  void commitBeforeRevoking(Consumer<byte[], byte[]> consumer, Collection<TopicPartition> gone) {
    commit(consumer, committable(gone), true);
  }

  /** Records settled whose offsets are not committed yet (Kafka still counts them as lag). */
  long settledNotCommitted() {
    return settledNotCommitted;
  }

  /** Recounts {@link #settledNotCommitted()}; after every change of a window. */
  void count() {
    long settled = 0;
    for (Held partition : held.values()) {
      settled += partition.window().settledNotCommitted();
    }
    settledNotCommitted = settled;
  }

  private Map<TopicPartition, OffsetAndMetadata> committable(
      Collection<TopicPartition> partitions) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition partition : partitions) {
      Held partitionHeld = held.get(partition);
      if (partitionHeld != null) {
        partitionHeld
            .window()
            .committable()
            .ifPresent(upTo -> offsets.put(partition, new OffsetAndMetadata(upTo)));
      }
    }
    return offsets;
  }

  private void commit(
      Consumer<byte[], byte[]> consumer,
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
    Held partitionHeld = held.get(partition);
    if (partitionHeld != null) {
      partitionHeld.window().committed(offset);
    }
    count();
  }
}
