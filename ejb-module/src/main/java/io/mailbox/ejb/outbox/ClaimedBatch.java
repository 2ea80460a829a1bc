package io.mailbox.ejb.outbox;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A batch after its claim: the rows this relay holds and will publish, in position order, and what
 * {@link BatchFinish} needs to publish and settle them.
 *
 * @param keys every blocking key of the batch as gathered (blocked if the sweep fails with it open)
 * @param rows the claimed, valid rows still to publish; rows given back later are removed
 * @param stopped the keys that stopped so far; owned by whoever works on the batch at the time
 * @param ordered the addresses whose transport keeps a call's order
 * @param leaseUntil when the claim's lease ends
 */
record ClaimedBatch(
    Set<String> keys,
    List<OutboxRow> rows,
    StoppedKeys stopped,
    Set<String> ordered,
    long leaseUntil) {

  /** The positions of the rows this relay holds: open in the table until they are marked sent. */
  Set<String> positions() {
    Set<String> positions = new HashSet<>();
    rows.forEach(row -> positions.add(row.position()));
    return positions;
  }
}
