package io.mailbox.ejb.outbox;

import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The outbox statements in JPQL, portable across H2, PostgreSQL and MariaDB. Each method runs in
 * the transaction its caller holds ({@link TransactionalOutboxStore} opens one per call). Status
 * writes are single {@code UPDATE ... WHERE claimVersion = :held} statements: the database decides
 * who wins, not a read-then-write in Java.
 */
public final class JpaOutboxQueries implements OutboxStore {
  /** The standard hint: JPA providers pass it on as the JDBC statement's query timeout. */
  static final String QUERY_TIMEOUT = "jakarta.persistence.query.timeout";

  private final EntityManager em;
  private final int timeoutMillis;

  /** With the default store bound ({@link RelaySettings#defaults()}). */
  public JpaOutboxQueries(EntityManager em) {
    this(em, RelaySettings.defaults().storeTimeout());
  }

  /**
   * @param storeTimeout how long one statement may take: a database that holds it longer (a lock, a
   *     hung server) fails it, and the relay counts the sweep's store as failing instead of hanging
   *     past its claims' leases. JDBC counts it in whole seconds.
   */
  public JpaOutboxQueries(EntityManager em, java.time.Duration storeTimeout) {
    this.em = em;
    this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, storeTimeout.toMillis());
  }

  private <T> TypedQuery<T> query(String jpql, Class<T> type) {
    return em.createQuery(jpql, type).setHint(QUERY_TIMEOUT, timeoutMillis);
  }

  private jakarta.persistence.Query query(String jpql) {
    return em.createQuery(jpql).setHint(QUERY_TIMEOUT, timeoutMillis);
  }

  @Override
  public List<OutboxRow> page(String afterPosition, int limit) {
    // One status: the index MBX_OUTBOX_RELAY (STATUS, POSITION) hands the rows out in order and the
    // scan stops at the limit; with two statuses the database reads and sorts every open row.
    TypedQuery<OutboxRecord> query =
        afterPosition == null
            ? query(
                "SELECT r FROM OutboxRecord r WHERE r.status = :pending ORDER BY r.position",
                OutboxRecord.class)
            : query(
                    "SELECT r FROM OutboxRecord r WHERE r.status = :pending AND r.position > :after"
                        + " ORDER BY r.position",
                    OutboxRecord.class)
                .setParameter("after", afterPosition);
    return query
        .setParameter("pending", OutboxStatus.PENDING)
        .setMaxResults(limit)
        .getResultList()
        .stream()
        .map(OutboxRecord::view)
        .toList();
  }

  @Override
  public Map<String, List<String>> openPositions(Set<String> orderingKeys, String upTo, int limit) {
    if (orderingKeys.isEmpty()) {
      return Map.of();
    }
    Map<String, List<String>> open = new HashMap<>();
    // Bounded by the batch's last position: only rows up to it can come before a batch row, and the
    // bound keeps a key with a long backlog from costing a scan of it per batch (index
    // MBX_OUTBOX_KEY: ORDERING_KEY, TENANT_ID, STATUS, POSITION).
    for (Object[] found :
        query(
                "SELECT r.tenantId, r.orderingKey, r.position FROM OutboxRecord r"
                    + " WHERE r.orderingKey IN :keys AND r.status IN :open AND r.position <= :upTo"
                    + " ORDER BY r.position",
                Object[].class)
            .setParameter("keys", orderingKeys)
            .setParameter("open", List.of(OutboxStatus.PENDING, OutboxStatus.FAILED))
            .setParameter("upTo", upTo)
            .setMaxResults(limit)
            .getResultList()) {
      // A null and an empty tenant block each other (OutboxRow.blockingKey): one list for both.
      open.computeIfAbsent(
              OutboxRow.blockingKey((String) found[0], (String) found[1]), k -> new ArrayList<>())
          .add((String) found[2]);
    }
    return open;
  }

  /**
   * One statement for the whole batch: each row's version compared and bumped, the lease and the
   * claimant set. When it changed fewer rows than asked (another relay won some), the rows are read
   * back in the same transaction to tell which are this claimant's.
   *
   * <p>No status condition: every exit from pending moves the version ({@link #afterExit}), so the
   * versions alone say the rows are still pending. A status condition sends planners to the status
   * indexes: on PostgreSQL with statistics older than a backlog it filters every pending row (18.8
   * ms against 4.5 ms by the ids for 100 rows of 10,000), on MariaDB it locks the index's gaps and
   * deadlocked application transactions inserting rows (seen in the store contract).
   */
  @Override
  public List<Boolean> claimAll(List<Version> expected, long leaseUntil, String claimant) {
    if (expected.isEmpty()) {
      return List.of();
    }
    VersionMatch match = VersionMatch.of(expected);
    jakarta.persistence.Query claim =
        query(
                "UPDATE OutboxRecord r SET r.claimVersion = r.claimVersion + 1, r.leaseUntil = :lease,"
                    + " r.sentBy = :claimant WHERE "
                    + match.condition())
            .setParameter("lease", leaseUntil)
            .setParameter("claimant", claimant);
    if (match.bind(claim).executeUpdate() == expected.size()) {
      return java.util.Collections.nCopies(expected.size(), true);
    }
    Map<String, Object[]> now = readBack(expected);
    return expected.stream()
        .map(
            row -> {
              Object[] found = now.get(row.id());
              return found != null
                  && found[1] == OutboxStatus.PENDING
                  && ((Long) found[2]) == row.version() + 1
                  && ((Long) found[3]) == leaseUntil
                  && claimant.equals(found[4]);
            })
        .toList();
  }

  /** One statement for the whole batch, read back only when it changed fewer rows than asked. */
  @Override
  public List<Boolean> markAllSent(List<Version> held, long now, String sentBy) {
    if (held.isEmpty()) {
      return List.of();
    }
    VersionMatch match = VersionMatch.of(held);
    jakarta.persistence.Query mark =
        query(
                "UPDATE OutboxRecord r SET r.status = :sent, r.claimVersion = r.claimVersion + 1,"
                    + " r.settledAt = :now, r.sentBy = :by, r.leaseUntil = 0, r.lastError = NULL"
                    + " WHERE "
                    + match.condition())
            .setParameter("sent", OutboxStatus.SENT)
            .setParameter("now", now)
            .setParameter("by", sentBy);
    if (match.bind(mark).executeUpdate() == held.size()) {
      return java.util.Collections.nCopies(held.size(), true);
    }
    Map<String, Object[]> found = readBack(held);
    return held.stream()
        .map(
            row -> {
              Object[] read = found.get(row.id());
              // Only the holder of this version could settle it: another relay's claim bumps it.
              return read != null
                  && read[1] == OutboxStatus.SENT
                  && ((Long) read[2]) == row.version() + 1
                  && sentBy.equals(read[4])
                  && Long.valueOf(now).equals(read[5]);
            })
        .toList();
  }

  /**
   * id → {id, status, claimVersion, leaseUntil, sentBy, settledAt} of the rows, as they are now.
   */
  private Map<String, Object[]> readBack(List<Version> rows) {
    Map<String, Object[]> found = new HashMap<>();
    for (Object[] row :
        query(
                "SELECT r.id, r.status, r.claimVersion, r.leaseUntil, r.sentBy, r.settledAt"
                    + " FROM OutboxRecord r"
                    + " WHERE r.id IN :ids",
                Object[].class)
            .setParameter("ids", rows.stream().map(Version::id).toList())
            .getResultList()) {
      found.put((String) row[0], row);
    }
    return found;
  }

  @Override
  public boolean claim(String id, long expectedVersion, long leaseUntil) {
    return query(
                "UPDATE OutboxRecord r SET r.claimVersion = r.claimVersion + 1, r.leaseUntil = :lease"
                    + " WHERE r.id = :id AND r.claimVersion = :expected AND r.status = :pending")
            .setParameter("lease", leaseUntil)
            .setParameter("id", id)
            .setParameter("expected", expectedVersion)
            .setParameter("pending", OutboxStatus.PENDING)
            .executeUpdate()
        == 1;
  }

  @Override
  public boolean markSent(String id, long heldVersion, long now, String sentBy) {
    return query(
                "UPDATE OutboxRecord r SET r.status = :sent, r.claimVersion = :next, r.settledAt = :now,"
                    + " r.sentBy = :by, r.leaseUntil = 0, r.lastError = NULL"
                    + " WHERE r.id = :id AND r.claimVersion = :held AND r.status = :pending")
            .setParameter("sent", OutboxStatus.SENT)
            .setParameter("next", afterExit(heldVersion))
            .setParameter("now", now)
            .setParameter("by", sentBy)
            .setParameter("id", id)
            .setParameter("held", heldVersion)
            .setParameter("pending", OutboxStatus.PENDING)
            .executeUpdate()
        == 1;
  }

  /**
   * The version a row leaves the pending state with: one more than held (never past the top, where
   * an invalid row is failed unclaimed; no relay claims a row there). Every exit from pending moves
   * the version, so a claim that matches the version a relay read meets a pending row.
   */
  private static long afterExit(long held) {
    return held < Long.MAX_VALUE ? held + 1 : held;
  }

  @Override
  public boolean markRetry(
      String id, long heldVersion, int attempts, long availableAt, String error) {
    return query(
                "UPDATE OutboxRecord r SET r.attempts = :attempts, r.availableAt = :available, r.leaseUntil = 0,"
                    + " r.lastError = :error WHERE r.id = :id AND r.claimVersion = :held AND r.status = :pending")
            .setParameter("attempts", attempts)
            .setParameter("available", availableAt)
            .setParameter("error", error)
            .setParameter("id", id)
            .setParameter("held", heldVersion)
            .setParameter("pending", OutboxStatus.PENDING)
            .executeUpdate()
        == 1;
  }

  @Override
  public boolean markFailed(String id, long heldVersion, int attempts, String error) {
    return query(
                "UPDATE OutboxRecord r SET r.status = :failed, r.claimVersion = :next,"
                    + " r.attempts = :attempts, r.leaseUntil = 0, r.lastError = :error"
                    + " WHERE r.id = :id AND r.claimVersion = :held AND r.status = :pending")
            .setParameter("failed", OutboxStatus.FAILED)
            .setParameter("next", afterExit(heldVersion))
            .setParameter("attempts", attempts)
            .setParameter("error", error)
            .setParameter("id", id)
            .setParameter("held", heldVersion)
            .setParameter("pending", OutboxStatus.PENDING)
            .executeUpdate()
        == 1;
  }

  @Override
  public boolean release(String id, boolean retry, long now) {
    String update =
        retry
            ? "UPDATE OutboxRecord r SET r.status = :next, r.attempts = 0, r.leaseUntil = 0, r.availableAt = :now"
                + " WHERE r.id = :id AND r.status = :failed"
            : "UPDATE OutboxRecord r SET r.status = :next, r.settledAt = :now, r.leaseUntil = 0"
                + " WHERE r.id = :id AND r.status = :failed";
    return query(update)
            .setParameter("next", retry ? OutboxStatus.PENDING : OutboxStatus.DISCARDED)
            .setParameter("now", now)
            .setParameter("id", id)
            .setParameter("failed", OutboxStatus.FAILED)
            .executeUpdate()
        == 1;
  }

  @Override
  public Optional<OutboxRow> find(String id) {
    OutboxRecord record = em.find(OutboxRecord.class, id, Map.of(QUERY_TIMEOUT, timeoutMillis));
    if (record != null) {
      em.refresh(record);
    }
    return Optional.ofNullable(record).map(OutboxRecord::view);
  }

  @Override
  public List<OutboxRow> list(OutboxStatus status, int limit) {
    return em
        .createQuery(
            "SELECT r FROM OutboxRecord r WHERE r.status = :status ORDER BY r.position",
            OutboxRecord.class)
        .setParameter("status", status)
        .setMaxResults(limit)
        .getResultList()
        .stream()
        .map(OutboxRecord::view)
        .toList();
  }

  @Override
  public long count(OutboxStatus status) {
    return query("SELECT COUNT(r) FROM OutboxRecord r WHERE r.status = :status", Long.class)
        .setParameter("status", status)
        .getSingleResult();
  }

  @Override
  public Optional<Long> oldestPendingCreatedAt() {
    return Optional.ofNullable(
        query("SELECT MIN(r.createdAt) FROM OutboxRecord r WHERE r.status = :pending", Long.class)
            .setParameter("pending", OutboxStatus.PENDING)
            .getSingleResult());
  }

  @Override
  public int purgeSettled(long settledBefore, int limit) {
    int purged = 0;
    for (OutboxStatus settled : List.of(OutboxStatus.SENT, OutboxStatus.DISCARDED)) {
      List<String> ids =
          query(
                  "SELECT r.id FROM OutboxRecord r WHERE r.status = :status AND r.settledAt < :before"
                      + " ORDER BY r.settledAt",
                  String.class)
              .setParameter("status", settled)
              .setParameter("before", settledBefore)
              .setMaxResults(limit)
              .getResultList();
      if (!ids.isEmpty()) {
        purged +=
            query("DELETE FROM OutboxRecord r WHERE r.id IN :ids AND r.status = :status")
                .setParameter("ids", ids)
                .setParameter("status", settled)
                .executeUpdate();
      }
    }
    return purged;
  }
}
