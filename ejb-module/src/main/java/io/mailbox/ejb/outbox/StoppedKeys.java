package io.mailbox.ejb.outbox;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The keys of one batch that "stopped": a row that did not go, and with it every later row of its
 * key. Kept as blocking key → the first position that did not go.
 */
final class StoppedKeys {
  private final Map<String, String> firstStopped = new HashMap<>();

  /** {@code row} does not go, nor any later row of its key (unkeyed rows never stop anything). */
  void stop(OutboxRow row) {
    if (row.blockingKey() != null) {
      firstStopped.merge(row.blockingKey(), row.position(), (a, b) -> a.compareTo(b) <= 0 ? a : b);
    }
  }

  /** Whether an earlier row of {@code row}'s key, or the row itself, did not go. */
  boolean isStopped(OutboxRow row) {
    String from = row.blockingKey() == null ? null : firstStopped.get(row.blockingKey());
    return from != null && row.position().compareTo(from) >= 0;
  }

  Set<String> keys() {
    return firstStopped.keySet();
  }
}
