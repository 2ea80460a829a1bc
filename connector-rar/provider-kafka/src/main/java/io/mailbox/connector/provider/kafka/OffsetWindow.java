package io.mailbox.connector.provider.kafka;

import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The records of one partition handed out and not yet settled, and what may be committed: Kafka
 * keeps one offset per partition and group, so the provider commits the contiguous settled prefix —
 * up to the lowest record still unsettled, never past it. A crash then redelivers the unsettled
 * records and those after them (at least once), and never skips one. Used by one thread only.
 */
final class OffsetWindow {
  private final TreeSet<Long> unsettled = new TreeSet<>();
  private long next; // one past the highest offset handed out
  private long committed; // the offset last committed (the next record the group would read)

  /**
   * @param position where the partition was assigned: the next offset the consumer reads
   */
  OffsetWindow(long position) {
    this.next = position;
    this.committed = position;
  }

  void handedOut(long offset) {
    unsettled.add(offset);
    next = Math.max(next, offset + 1);
  }

  /** A record was settled (handled, or stored elsewhere: requeued or dead-lettered). */
  void settled(long offset) {
    unsettled.remove(offset);
  }

  /** The offset to commit now, if it moved: the lowest unsettled record, else one past the last. */
  OptionalLong committable() {
    long upTo = unsettled.isEmpty() ? next : unsettled.first();
    return upTo > committed ? OptionalLong.of(upTo) : OptionalLong.empty();
  }

  void committed(long offset) {
    committed = Math.max(committed, offset);
  }

  int unsettledCount() {
    return unsettled.size();
  }

  /** Records handed out since the last commit that are settled already. */
  long settledNotCommitted() {
    return Math.max(0, next - committed - unsettled.size());
  }
}
