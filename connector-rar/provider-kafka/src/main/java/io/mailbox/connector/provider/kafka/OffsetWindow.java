package io.mailbox.connector.provider.kafka;

import java.util.BitSet;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The records of one partition handed out and not yet settled, and what may be committed: Kafka
 * keeps one offset per partition and group, so the provider commits the contiguous settled prefix —
 * up to the lowest record still unsettled, never past it. A crash then redelivers the unsettled
 * records and those after them (at least once), and never skips one. Used by one thread only.
 *
 * <p>The unsettled offsets are bits counted from a base at or below the lowest of them: every
 * record read costs a bit set and a bit cleared, not a boxed entry in a sorted set (that and its
 * neighbours were a third of the poll thread's time per record). Offsets can jump (a compacted
 * topic, transaction markers, an offset reset): an empty window starts again at the next offset,
 * and while unsettled records span more than {@value #MAX_BITS} offsets they are kept in a sorted
 * set instead, until none is left.
 */
final class OffsetWindow {
  // Moving the base copies the bits: done once the lowest unsettled is this far above it.
  private static final int REBASE_AT = 4_096;
  // The widest span kept as bits (128 KiB); wider spans go to the sorted set.
  static final int MAX_BITS = 1 << 20;

  private BitSet unsettled = new BitSet(); // bit i: offset base + i is handed out, not settled
  private TreeSet<Long> sparse; // instead of the bits while the span is wider than MAX_BITS
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
    next = Math.max(next, offset + 1);
    if (sparse != null) {
      if (sparse.add(offset)) {
        unsettledCount++;
      }
      return;
    }
    if (unsettledCount == 0) {
      base = offset; // nothing to keep: the bits start here, however far the offsets jumped
    } else if (offset < base) {
      if (!rebase(offset)) { // never met in a poll loop (offsets only grow), kept correct anyway
        toSparse();
        handedOut(offset);
        return;
      }
    } else if (offset - base >= MAX_BITS) {
      toSparse();
      handedOut(offset);
      return;
    }
    int bit = (int) (offset - base);
    if (!unsettled.get(bit)) {
      unsettled.set(bit);
      unsettledCount++;
    }
  }

  /** A record was settled (handled, or stored elsewhere: requeued or dead-lettered). */
  void settled(long offset) {
    if (sparse != null) {
      if (sparse.remove(offset) && --unsettledCount == 0) {
        sparse = null; // back to bits, from the next record handed out
        unsettled.clear();
      }
      return;
    }
    if (offset < base || offset - base >= MAX_BITS || !unsettled.get((int) (offset - base))) {
      return; // not handed out by this window, or settled already
    }
    unsettled.clear((int) (offset - base));
    unsettledCount--;
    if (unsettledCount == 0) {
      unsettled.clear();
    } else {
      int lowest = unsettled.nextSetBit(0);
      if (lowest >= REBASE_AT) {
        rebase(base + lowest);
      }
    }
  }

  /** The offset to commit now, if it moved: the lowest unsettled record, else one past the last. */
  OptionalLong committable() {
    long upTo = unsettledCount == 0 ? next : lowestUnsettled();
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

  private long lowestUnsettled() {
    return sparse != null ? sparse.first() : base + unsettled.nextSetBit(0);
  }

  /** The bits counted from {@code newBase} instead; false when they would span too many. */
  private boolean rebase(long newBase) {
    if (base + unsettled.length() - newBase > MAX_BITS) {
      return false;
    }
    BitSet moved = new BitSet();
    for (int bit = unsettled.nextSetBit(0); bit >= 0; bit = unsettled.nextSetBit(bit + 1)) {
      moved.set((int) (base + bit - newBase));
    }
    unsettled = moved;
    base = newBase;
    return true;
  }

  private void toSparse() {
    sparse = new TreeSet<>();
    for (int bit = unsettled.nextSetBit(0); bit >= 0; bit = unsettled.nextSetBit(bit + 1)) {
      sparse.add(base + bit);
    }
    unsettled = new BitSet(); // the old array may be large
  }
}
