package io.mailbox.ejb.outbox;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Eligible rows gathered for one claim, their publish and one status write, in position order. A
 * batch holds several rows of one ordering key only when they go to one address; a key's row for
 * another address waits for the next batch, after its predecessor's outcome is known. How a key's
 * rows of one batch are published in order is {@link DestinationPublish}'s part.
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

  /** Whether {@code row} may join: its key is new here, or it follows on the key's address. */
  boolean admits(OutboxRow row) {
    String key = row.blockingKey();
    return key == null || !keys.containsKey(key) || keys.get(key).equals(row.address());
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
