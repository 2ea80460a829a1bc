package io.mailbox.ejb.outbox;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * An {@link OutboxStore} in memory with the same compare-and-set rules as the JPA one, for the
 * relay's unit tests. {@link #onClaim} and {@link #beforeOpenPositions} let a test act as a second
 * relay or writer mid-flight.
 */
final class InMemoryOutboxStore implements OutboxStore {
  private final Map<String, OutboxRow> rows = new TreeMap<>();
  Consumer<String> onClaim = id -> {};
  Runnable beforeOpenPositions = () -> {};

  synchronized void insert(OutboxRow row) {
    rows.put(row.id(), row);
  }

  synchronized OutboxRow get(String id) {
    return rows.get(id);
  }

  /** Another relay's claim on a row: bumps the version and sets a lease. */
  synchronized void foreignClaim(String id, long leaseUntil) {
    OutboxRow row = rows.get(id);
    rows.put(
        id,
        with(
            row,
            row.status(),
            row.attempts(),
            row.availableAt(),
            row.claimVersion() + 1,
            leaseUntil,
            row.lastError(),
            row.settledAt()));
  }

  private static OutboxRow with(
      OutboxRow row,
      OutboxStatus status,
      int attempts,
      long availableAt,
      long version,
      long lease,
      String error,
      Long settledAt) {
    return new OutboxRow(
        row.id(),
        row.topic(),
        row.address(),
        row.envelope(),
        row.orderingKey(),
        row.deduplicationId(),
        row.headers(),
        row.tenantId(),
        row.position(),
        row.createdAt(),
        status,
        attempts,
        availableAt,
        version,
        lease,
        error,
        settledAt);
  }

  @Override
  public synchronized Map<String, List<String>> openPositions(
      Set<String> orderingKeys, String upTo, int limit) {
    beforeOpenPositions.run();
    Map<String, List<String>> open = new HashMap<>();
    rows.values().stream()
        .filter(r -> r.status() == OutboxStatus.PENDING || r.status() == OutboxStatus.FAILED)
        .filter(r -> r.orderingKey() != null && orderingKeys.contains(r.orderingKey()))
        .filter(r -> r.position().compareTo(upTo) <= 0)
        .sorted(Comparator.comparing(OutboxRow::position))
        .limit(limit)
        .forEach(
            r -> open.computeIfAbsent(r.blockingKey(), k -> new ArrayList<>()).add(r.position()));
    return open;
  }

  @Override
  public synchronized List<OutboxRow> page(String afterPosition, int limit) {
    return rows.values().stream()
        .filter(r -> r.status() == OutboxStatus.PENDING)
        .filter(r -> afterPosition == null || r.position().compareTo(afterPosition) > 0)
        .sorted(Comparator.comparing(OutboxRow::position))
        .limit(limit)
        .toList();
  }

  @Override
  public boolean claim(String id, long expectedVersion, long leaseUntil) {
    boolean won;
    synchronized (this) {
      OutboxRow row = rows.get(id);
      won =
          row != null
              && row.claimVersion() == expectedVersion
              && row.status() == OutboxStatus.PENDING;
      if (won) {
        rows.put(
            id,
            with(
                row,
                row.status(),
                row.attempts(),
                row.availableAt(),
                // As on a database: a BIGINT column past its top is an error, not a wrap-around.
                Math.addExact(expectedVersion, 1),
                leaseUntil,
                row.lastError(),
                row.settledAt()));
      }
    }
    if (won) {
      onClaim.accept(id);
    }
    return won;
  }

  private synchronized boolean write(
      String id, long held, java.util.function.UnaryOperator<OutboxRow> change) {
    OutboxRow row = rows.get(id);
    if (row == null || row.claimVersion() != held || row.status() != OutboxStatus.PENDING) {
      return false;
    }
    rows.put(id, change.apply(row));
    return true;
  }

  @Override
  public boolean markSent(String id, long heldVersion, long now, String sentBy) {
    return write(
        id,
        heldVersion,
        r ->
            with(
                r,
                OutboxStatus.SENT,
                r.attempts(),
                r.availableAt(),
                afterExit(r.claimVersion()),
                0,
                null,
                now));
  }

  /** As the JPA store: every exit from pending moves the version. */
  private static long afterExit(long held) {
    return held < Long.MAX_VALUE ? held + 1 : held;
  }

  @Override
  public boolean markRetry(
      String id, long heldVersion, int attempts, long availableAt, String error) {
    return write(
        id,
        heldVersion,
        r ->
            with(r, OutboxStatus.PENDING, attempts, availableAt, r.claimVersion(), 0, error, null));
  }

  @Override
  public boolean markFailed(String id, long heldVersion, int attempts, String error) {
    return write(
        id,
        heldVersion,
        r ->
            with(
                r,
                OutboxStatus.FAILED,
                attempts,
                r.availableAt(),
                afterExit(r.claimVersion()),
                0,
                error,
                null));
  }

  @Override
  public synchronized boolean release(String id, boolean retry, long now) {
    OutboxRow row = rows.get(id);
    if (row == null || row.status() != OutboxStatus.FAILED) {
      return false;
    }
    rows.put(
        id,
        retry
            ? with(row, OutboxStatus.PENDING, 0, now, row.claimVersion(), 0, row.lastError(), null)
            : with(
                row,
                OutboxStatus.DISCARDED,
                row.attempts(),
                row.availableAt(),
                row.claimVersion(),
                0,
                row.lastError(),
                now));
    return true;
  }

  @Override
  public synchronized Optional<OutboxRow> find(String id) {
    return Optional.ofNullable(rows.get(id));
  }

  @Override
  public synchronized List<OutboxRow> list(OutboxStatus status, int limit) {
    return rows.values().stream().filter(r -> r.status() == status).limit(limit).toList();
  }

  @Override
  public synchronized long count(OutboxStatus status) {
    return rows.values().stream().filter(r -> r.status() == status).count();
  }

  @Override
  public synchronized Optional<Long> oldestPendingCreatedAt() {
    return rows.values().stream()
        .filter(r -> r.status() == OutboxStatus.PENDING)
        .map(OutboxRow::createdAt)
        .min(Long::compare);
  }

  @Override
  public synchronized int purgeSettled(long settledBefore, int limit) {
    List<String> doomed = new ArrayList<>();
    for (OutboxStatus status : List.of(OutboxStatus.SENT, OutboxStatus.DISCARDED)) {
      rows.values().stream()
          .filter(
              r -> r.status() == status && r.settledAt() != null && r.settledAt() < settledBefore)
          .limit(limit)
          .forEach(r -> doomed.add(r.id()));
    }
    doomed.forEach(rows::remove);
    return doomed.size();
  }
}
