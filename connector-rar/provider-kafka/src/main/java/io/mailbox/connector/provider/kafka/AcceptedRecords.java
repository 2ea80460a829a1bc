package io.mailbox.connector.provider.kafka;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The records a share reader accepted, by partition and offset. Until the broker confirms an
 * acceptance the record is still in the group's lag ({@link #notConfirmed}). Once confirmed, the
 * group's start offset passes it, but the start offset a peek or a status reads from the admin API
 * can lag the confirmation by a moment; for {@link #GRACE_NANOS} a confirmed record is still
 * reported as taken, so a peek never shows a handled record as the oldest waiting one.
 */
final class AcceptedRecords {
  static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final Set<String> notConfirmed = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> confirmedAt = new ConcurrentHashMap<>();

  void accepted(int partition, long offset) {
    notConfirmed.add(at(partition, offset));
  }

  /**
   * The acceptance will not reach the broker (or it refused it): the record is handed out again.
   */
  void undone(int partition, long offset) {
    notConfirmed.remove(at(partition, offset));
  }

  /** The broker confirmed the acceptance. */
  void confirmed(int partition, long offset) {
    String at = at(partition, offset);
    if (notConfirmed.remove(at)) {
      long now = System.nanoTime();
      confirmedAt.put(at, now);
      confirmedAt.values().removeIf(then -> now - then > GRACE_NANOS);
    }
  }

  /** Accepted here and not confirmed, or confirmed within the grace. */
  boolean taken(int partition, long offset) {
    String at = at(partition, offset);
    if (notConfirmed.contains(at)) {
      return true;
    }
    Long then = confirmedAt.get(at);
    return then != null && System.nanoTime() - then <= GRACE_NANOS;
  }

  /** Accepted and not confirmed: still counted in the group's lag by the broker. */
  int notConfirmed() {
    return notConfirmed.size();
  }

  /** The consumer closed: what it did not get confirmed is handed out again. */
  void clear() {
    notConfirmed.clear();
    confirmedAt.clear();
  }

  private static String at(int partition, long offset) {
    return partition + "@" + offset;
  }
}
