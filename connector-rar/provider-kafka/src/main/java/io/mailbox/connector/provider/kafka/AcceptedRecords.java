package io.mailbox.connector.provider.kafka;

import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicIdPartition;

/**
 * The records a share reader accepted, by partition and offset. Until the broker confirms an
 * acceptance the record is still in the group's lag ({@link #notConfirmed}). Once confirmed, the
 * group's start offset passes it, but the start offset a peek or a status reads from the admin API
 * can lag the confirmation by a moment; for {@link #GRACE_NANOS} a confirmed record is still
 * reported as taken, so a peek never shows a handled record as the oldest waiting one.
 */
final class AcceptedRecords {
  static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** A confirmation, in the order they came: the oldest are forgotten first. */
  private record Confirmation(String at, long nanos) {}

  private final LongSupplier nanoTime;
  private final Set<String> notConfirmed = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> confirmedAt = new ConcurrentHashMap<>();
  // Oldest first. Forgetting walks from the head only: a scan of every confirmation per
  // confirmation cost the queue benchmark 2,700 records/s at 100,000 (10 s of confirmations kept).
  private final Queue<Confirmation> confirmations = new ConcurrentLinkedQueue<>();

  AcceptedRecords() {
    this(System::nanoTime);
  }

  AcceptedRecords(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

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
      long now = nanoTime.getAsLong();
      confirmedAt.put(at, now);
      confirmations.add(new Confirmation(at, now));
      forgetOlderThanGrace(now);
    }
  }

  /** The broker's answer to acknowledgements: confirmed, or undone when it refused them. */
  void answered(Map<TopicIdPartition, Set<Long>> offsets, Exception error) {
    offsets.forEach(
        (partition, set) -> {
          for (Long offset : set) {
            if (error == null) {
              confirmed(partition.partition(), offset);
            } else {
              undone(partition.partition(), offset);
            }
          }
        });
  }

  /** Accepted here and not confirmed, or confirmed within the grace. */
  boolean taken(int partition, long offset) {
    String at = at(partition, offset);
    if (notConfirmed.contains(at)) {
      return true;
    }
    Long then = confirmedAt.get(at);
    return then != null && nanoTime.getAsLong() - then <= GRACE_NANOS;
  }

  /** Accepted and not confirmed: still counted in the group's lag by the broker. */
  int notConfirmed() {
    return notConfirmed.size();
  }

  /** Confirmed records still remembered (within the grace, or not forgotten yet). */
  int remembered() {
    return confirmedAt.size();
  }

  /** The consumer closed: what it did not get confirmed is handed out again. */
  void clear() {
    notConfirmed.clear();
    confirmedAt.clear();
    confirmations.clear();
  }

  private void forgetOlderThanGrace(long now) {
    Confirmation oldest;
    while ((oldest = confirmations.peek()) != null && now - oldest.nanos() > GRACE_NANOS) {
      confirmations.poll();
      confirmedAt.remove(oldest.at(), oldest.nanos()); // unless confirmed again since
    }
  }

  private static String at(int partition, long offset) {
    return partition + "@" + offset;
  }
}
