package io.mailbox.ejb.outbox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A publisher for the relay's race tests that records every publish and each ordering key's first
 * publishes in order. Unordered, it publishes row by row, each row failing on its own; ordered, it
 * behaves as an {@code ordered-batch} transport under {@code MailboxOutboxPublisher}: a failing
 * call stores a prefix of its rows and reports every row failed, so the relay re-sends them all.
 */
final class RecordingPublisher implements OutboxPublisher {
  final Map<String, AtomicInteger> publishes = new ConcurrentHashMap<>();
  final Map<String, List<String>> firstPublishesByKey = new ConcurrentHashMap<>();
  final AtomicInteger refused = new AtomicInteger();
  final AtomicInteger callsWithSeveralRowsOfAKey = new AtomicInteger();
  private final boolean ordered;
  private final int failOneIn;
  private final AtomicInteger calls = new AtomicInteger();

  /**
   * @param ordered whether a call keeps its order (several rows of a key may share it)
   * @param failOneIn one row (unordered) or call (ordered) in this many fails; 0: none
   */
  RecordingPublisher(boolean ordered, int failOneIn) {
    this.ordered = ordered;
    this.failOneIn = failOneIn;
  }

  @Override
  public boolean keepsOrderWithinCall(String address) {
    return ordered;
  }

  @Override
  public void publish(OutboxRow row) {
    if (fails()) {
      refused.incrementAndGet();
      throw new IllegalStateException("broker unavailable");
    }
    record(row);
  }

  @Override
  public List<Exception> publishAll(List<OutboxRow> rows) {
    if (!ordered) {
      return OutboxPublisher.super.publishAll(rows);
    }
    if (rows.stream().map(OutboxRow::blockingKey).filter(k -> k != null).distinct().count()
        < rows.stream().filter(r -> r.blockingKey() != null).count()) {
      callsWithSeveralRowsOfAKey.incrementAndGet();
    }
    if (fails()) {
      refused.incrementAndGet();
      int stored = ThreadLocalRandom.current().nextInt(rows.size() + 1);
      rows.subList(0, stored).forEach(this::record);
      return Collections.nCopies(rows.size(), new IllegalStateException("broker unavailable"));
    }
    rows.forEach(this::record);
    return Collections.nCopies(rows.size(), null);
  }

  /**
   * The second call (or row), then every {@code failOneIn}-th: counted, not drawn, so that a run
   * with few calls (large ordered batches) still meets failures — a random one in ten missed every
   * call of a run now and then.
   */
  private boolean fails() {
    return failOneIn > 0 && calls.incrementAndGet() % failOneIn == 2 % failOneIn;
  }

  private void record(OutboxRow row) {
    if (publishes.computeIfAbsent(row.id(), id -> new AtomicInteger()).incrementAndGet() == 1) {
      firstPublishesByKey
          .computeIfAbsent(
              row.orderingKey() == null ? "-" : row.orderingKey(),
              k -> Collections.synchronizedList(new ArrayList<>()))
          .add(row.id());
    }
  }
}
