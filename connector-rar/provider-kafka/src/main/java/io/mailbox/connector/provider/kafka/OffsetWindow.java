package io.mailbox.connector.provider.kafka;

import java.util.BitSet;
import java.util.OptionalLong;

/**
 * The records of one partition handed out and not yet settled, and what may be committed: Kafka
 * keeps one offset per partition and group, so the provider commits the contiguous settled prefix —
 * up to the lowest record still unsettled, never past it. A crash then redelivers the unsettled
 * records and those after them (at least once), and never skips one. Used by one thread only.
 *
 * <p>The unsettled offsets are bits counted from a base that follows the lowest of them: every
 * record read costs a bit set and a bit cleared, not a boxed entry in a sorted set (that and its
 * neighbours were a third of the poll thread's time per record).
 */
final class OffsetWindow {
  // Moving the base copies the bits: done once the lowest unsettled is this far above it.
  private static final int REBASE_AT = 4_096;

  private BitSet unsettled = new BitSet(); // bit i: offset base + i is handed out, not settled
  private long base; // at or below the lowest unsettled offset
  private int unsettledCount;
  private long next; // one past the highest offset handed out
  private long committed; // the offset last committed (the next record the group would read)

  /**
   * @param position where the partition was assigned: the next offset the consumer reads
   */
  OffsetWindow(long position) {
    this.next = position;
    this.committed = position;
    this.base = position;
  }

  void handedOut(long offset) {
    if (offset < base) {
      rebase(offset); // never met in a poll loop (offsets only grow), kept correct all the same
    }
    int bit = bitOf(offset);
    if (!unsettled.get(bit)) {
      unsettled.set(bit);
      unsettledCount++;
    }
    next = Math.max(next, offset + 1);
  }

  /** A record was settled (handled, or stored elsewhere: requeued or dead-lettered). */
  void settled(long offset) {
    if (offset < base || offset - base > Integer.MAX_VALUE) {
      return; // not handed out by this window
    }
    int bit = (int) (offset - base);
    if (!unsettled.get(bit)) {
      return;
    }
    unsettled.clear(bit);
    unsettledCount--;
    if (unsettledCount == 0) {
      unsettled.clear();
      base = next;
    } else {
      int lowest = unsettled.nextSetBit(0);
      if (lowest >= REBASE_AT) {
        rebase(base + lowest);
      }
    }
  }

  /** The offset to commit now, if it moved: the lowest unsettled record, else one past the last. */
  OptionalLong committable() {
    long upTo = unsettledCount == 0 ? next : base + unsettled.nextSetBit(0);
    return upTo > committed ? OptionalLong.of(upTo) : OptionalLong.empty();
  }

  void committed(long offset) {
    committed = Math.max(committed, offset);
  }

  int unsettledCount() {
    return unsettledCount;
  }

  /** Records handed out since the last commit that are settled already. */
  long settledNotCommitted() {
    return Math.max(0, next - committed - unsettledCount);
  }

  /** The bits counted from {@code newBase} instead (below or above the current base). */
  private void rebase(long newBase) {
    BitSet moved = new BitSet();
    for (int bit = unsettled.nextSetBit(0); bit >= 0; bit = unsettled.nextSetBit(bit + 1)) {
      moved.set(Math.toIntExact(base + bit - newBase));
    }
    unsettled = moved;
    base = newBase;
  }

  private int bitOf(long offset) {
    long bit = offset - base;
    if (bit > Integer.MAX_VALUE) {
      // Two billion records read past one still unsettled: its retries end at the delivery cap
      // long before; a window never reaches this.
      throw new IllegalStateException("More than 2^31 records handed out past an unsettled one");
    }
    return (int) bit;
  }
}
