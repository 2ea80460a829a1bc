package io.mailbox.ejb.inbox;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link InboxTransactions} in memory with the database's rules that the inbox meets: the marker is
 * inserted first and rolled back with a failed handler, a duplicate id collides, and the {@code
 * ENVELOPE_ID} column holds 128 characters. {@link #failOnce} makes the next call of a method
 * throw, as a dropped statement would.
 */
final class InMemoryInboxTransactions implements InboxTransactions {
  private final Map<String, InboxRow> rows = new TreeMap<>();
  private final Set<String> armed = ConcurrentHashMap.newKeySet();

  /** The next call of {@code method} (for example {@code "find"}) throws. */
  InMemoryInboxTransactions failOnce(String method) {
    armed.add(method);
    return this;
  }

  private void maybeFail(String method) {
    if (armed.remove(method)) {
      throw new IllegalStateException("injected store fault in " + method);
    }
  }

  private static void checkColumns(InboxRow row) {
    if (row.envelopeId() != null && row.envelopeId().length() > 128) {
      throw new IllegalStateException("value too long for column ENVELOPE_ID VARCHAR(128)");
    }
  }

  synchronized InboxRow get(String id) {
    return rows.get(id);
  }

  synchronized void put(InboxRow row) {
    rows.put(row.id(), row);
  }

  @Override
  public synchronized Optional<InboxRow> find(String id) {
    maybeFail("find");
    return Optional.ofNullable(rows.get(id));
  }

  @Override
  public boolean runWithMarker(InboxRow marker, Work work) throws Exception {
    maybeFail("runWithMarker");
    synchronized (this) {
      checkColumns(marker);
      if (rows.containsKey(marker.id())) {
        return false; // looked for in the same transaction: a redelivery runs nothing
      }
      rows.put(marker.id(), marker);
    }
    try {
      work.run();
    } catch (Exception e) {
      synchronized (this) {
        rows.remove(marker.id()); // rolled back with the handler's writes
      }
      throw e;
    }
    return true;
  }

  @Override
  public synchronized int recordFailure(InboxRow counter, String error) {
    maybeFail("recordFailure");
    checkColumns(counter);
    InboxRow now = rows.get(counter.id());
    int attempts = now == null ? 1 : now.attempts() + 1;
    rows.put(
        counter.id(),
        new InboxRow(
            counter.id(),
            counter.consumer(),
            counter.topic(),
            counter.envelopeId(),
            InboxStatus.FAILURES,
            attempts,
            counter.updatedAt(),
            error,
            null,
            null));
    return attempts;
  }

  @Override
  public synchronized boolean park(InboxRow parked) {
    maybeFail("park");
    checkColumns(parked);
    if (rows.containsKey(parked.id())) {
      return false;
    }
    rows.put(parked.id(), parked);
    return true;
  }

  @Override
  public synchronized List<InboxRow> parked(int limit) {
    return rows.values().stream()
        .filter(r -> r.status() == InboxStatus.PARKED)
        .limit(limit)
        .toList();
  }

  @Override
  public synchronized InboxRelease release(String id, boolean retry, long now) {
    maybeFail("release");
    InboxRow row = rows.get(id);
    if (row == null || row.status() != InboxStatus.PARKED) {
      return new InboxRelease(InboxRelease.Result.NOT_PARKED, null);
    }
    if (retry && row.envelope() == null) {
      return new InboxRelease(InboxRelease.Result.NO_STORED_ENVELOPE, row);
    }
    if (retry && row.sourceAddress() == null) {
      return new InboxRelease(InboxRelease.Result.NO_SOURCE_ADDRESS, row);
    }
    if (retry) {
      rows.remove(id);
      return new InboxRelease(InboxRelease.Result.RETRY, row);
    }
    rows.put(
        id,
        new InboxRow(
            id,
            row.consumer(),
            row.topic(),
            row.envelopeId(),
            InboxStatus.DISCARDED,
            row.attempts(),
            now,
            row.lastError(),
            null,
            row.sourceAddress()));
    return new InboxRelease(InboxRelease.Result.DISCARDED, row);
  }

  @Override
  public synchronized int purge(long before, int limit) {
    List<String> doomed =
        rows.values().stream().filter(r -> r.updatedAt() < before).map(InboxRow::id).toList();
    doomed.forEach(rows::remove);
    return doomed.size();
  }

  @Override
  public synchronized long count(InboxStatus status) {
    return rows.values().stream().filter(r -> r.status() == status).count();
  }
}
