package io.mailbox.ejb.outbox;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The outbox table as the relay and the operations use it. Every status write is a compare-and-set
 * on the held {@code claimVersion}: a relay whose claim was lost changes nothing. Leaving pending
 * (sent, failed) moves the version once more, so a version a relay read while the row was pending
 * never matches a row that left it since. Each call is its own transaction.
 */
public interface OutboxStore {

  /**
   * Pending rows after {@code afterPosition} (null: from the start), in write order. Failed rows
   * are not in it: the relay finds them with {@link #openPositions}, which stops their keys.
   */
  List<OutboxRow> page(String afterPosition, int limit);

  /**
   * For each given ordering key, the positions of its open (pending or failed) rows at or before
   * position {@code upTo}, ascending, keyed by {@link OutboxRow#blockingKey()}; keys with no such
   * row are absent. At most {@code limit} positions in all, the lowest. The relay asks before a
   * claim, because its lap cursor may have passed a key's earlier rows before their transaction
   * committed, and a batch holding several rows of a key must hold an unbroken run of them.
   */
  Map<String, List<String>> openPositions(Set<String> orderingKeys, String upTo, int limit);

  /** Claims a pending row: version {@code expected} → {@code expected + 1}, lease until then. */
  boolean claim(String id, long expectedVersion, long leaseUntil);

  /** Settles a claimed row as sent. False when the claim was lost. */
  boolean markSent(String id, long heldVersion, long now, String sentBy);

  /** A row and a claim version: the one expected by a claim, or the one held after it. */
  record Version(String id, long version) {}

  /**
   * {@link #claim} for several rows in one transaction; one answer per row, in order. A store may
   * record {@code claimant} as the row's {@code sentBy} while it is claimed (the JPA store does: it
   * tells its rows from another relay's when a one-statement claim won only some).
   */
  default List<Boolean> claimAll(List<Version> expected, long leaseUntil, String claimant) {
    return expected.stream().map(row -> claim(row.id(), row.version(), leaseUntil)).toList();
  }

  /** {@link #markSent} for several held rows in one transaction; one answer per row, in order. */
  default List<Boolean> markAllSent(List<Version> held, long now, String sentBy) {
    return held.stream().map(row -> markSent(row.id(), row.version(), now, sentBy)).toList();
  }

  /** Records a failed attempt and when the next may start. False when the claim was lost. */
  boolean markRetry(String id, long heldVersion, int attempts, long availableAt, String error);

  /** Fails a claimed row for good (max attempts, invalid row). False when the claim was lost. */
  boolean markFailed(String id, long heldVersion, int attempts, String error);

  /** An operator's release of a failed row: back to pending with zero attempts, or discarded. */
  boolean release(String id, boolean retry, long now);

  Optional<OutboxRow> find(String id);

  /** Rows of one status, oldest first (for the console). */
  List<OutboxRow> list(OutboxStatus status, int limit);

  long count(OutboxStatus status);

  /** Created-at of the oldest pending row, if any. */
  Optional<Long> oldestPendingCreatedAt();

  /**
   * Deletes sent and discarded rows settled before {@code settledBefore}, at most {@code limit} per
   * status.
   */
  int purgeSettled(long settledBefore, int limit);
}
