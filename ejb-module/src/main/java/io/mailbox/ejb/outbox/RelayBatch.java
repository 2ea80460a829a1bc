package io.mailbox.ejb.outbox;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Eligible rows gathered for one claim, one publish call per provider and one status write, in
 * position order. A batch holds several rows of one ordering key only when they go to one address
 * whose transport keeps a call's order ({@link OutboxPublisher#keepsOrderWithinCall}); otherwise a
 * key's next row waits for the next batch, after its predecessor's outcome is known.
 */
final class RelayBatch {
  private final List<OutboxRow> rows = new ArrayList<>();
  // Blocking key → the address its rows in this batch go to.
  private final Map<String, String> keys = new HashMap<>();
  // Keys a later, ineligible row blocked for the lap: they stay blocked after this batch.
  private final Set<String> blockedBehind = new HashSet<>();

  List<OutboxRow> rows() {
    return rows;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Whether {@code row} may join: its key is new here, or it follows in order on one address. */
  boolean admits(OutboxRow row, Predicate<String> keepsOrder) {
    String key = row.blockingKey();
    if (key == null || !keys.containsKey(key)) {
      return true;
    }
    return keys.get(key).equals(row.address()) && keepsOrder.test(row.address());
  }

  void add(OutboxRow row) {
    rows.add(row);
    if (row.blockingKey() != null) {
      keys.put(row.blockingKey(), row.address());
    }
  }

  /** The blocking keys of the batch's rows. */
  Set<String> keys() {
    return keys.keySet();
  }

  boolean holds(String key) {
    return keys.containsKey(key);
  }

  /** A row behind this batch's rows of {@code key} blocked it: the key stays blocked. */
  void blockedBehind(String key) {
    blockedBehind.add(key);
  }

  boolean isBlockedBehind(String key) {
    return blockedBehind.contains(key);
  }

  /** The position of the batch's last row (rows are added in position order). */
  String lastPosition() {
    return rows.get(rows.size() - 1).position();
  }

  /** The batch's ordering keys (without tenants): what {@link OutboxStore#openPositions} takes. */
  Set<String> orderingKeys() {
    Set<String> orderingKeys = new HashSet<>();
    for (OutboxRow row : rows) {
      if (row.orderingKey() != null) {
        orderingKeys.add(row.orderingKey());
      }
    }
    return orderingKeys;
  }
}
