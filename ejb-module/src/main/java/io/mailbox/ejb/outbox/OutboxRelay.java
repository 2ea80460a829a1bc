package io.mailbox.ejb.outbox;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Walks the pending set in laps, keyset-paged on position. Eligible rows are relayed in batches
 * ({@link RelayBatch}): check that each key's rows are an unbroken run of its open rows and the
 * claim version's range, claim (compare-and-set on each row's version, with a lease: one
 * statement), validate, fence (is there still time to publish and write the outcome?), publish (one
 * call per provider, a key's rows in order: see {@link DestinationPublish}), mark sent (one
 * statement). Plain Java over {@link OutboxStore} and {@link OutboxPublisher}, so its rules are
 * unit-tested without a database.
 *
 * <ul>
 *   <li>A failed row, a row backing off, a row held by another relay, or one whose claim or status
 *       write was lost <b>blocks its ordering key</b> for the rest of the lap: a later row of that
 *       key is never published first. Unkeyed rows never block. A batch's keys are blocked before
 *       it is claimed and unblocked once all their rows in it were marked sent, so a store error
 *       mid-batch (which ends the sweep) leaves them blocked for the rest of the lap. Before each
 *       claim the relay also asks the store for each key's open rows: positions are stamped at
 *       write and rows become visible at commit, so the cursor may already have passed a key's
 *       earlier rows (or another relay holds them); such a key is blocked too, and a batch's rows
 *       of a key go only up to the first that is not the key's next open row. A row whose earlier
 *       row of its key did not go is given back unpublished, its claim undone.
 *   <li>A destination's failure delays only its own rows: a batch is published per provider (and,
 *       after a whole-call failure, per address); rows of healthy destinations are marked sent, and
 *       only the failed rows count an attempt and back off.
 *   <li>{@code scanLimit} and {@code publishLimit} bound a sweep; the lap carries over to the next
 *       sweep, so a blocked key cannot starve the keys behind it.
 *   <li>A failed publish backs off exponentially; after {@code maxAttempts} the row is failed. A
 *       row that cannot be decoded, or whose claim version is at the top of its range (checked
 *       before the claim, which would overflow), is failed at once as {@code invalid-row}.
 * </ul>
 *
 * At least once, never exactly once: a relay that pauses after the fence can publish a row another
 * relay publishes too; the envelope id (the message id) lets a consumer inbox drop the repeat.
 */
public final class OutboxRelay {
  private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());

  private final OutboxStore store;
  private final RelaySettings settings;
  private final Clock clock;
  private final String relayId;
  private final RelayListener listener;
  private final DestinationPublish destinations;
  private final RowSettlement settlement;

  // The lap: where the scan stands and which keys are blocked until it ends. Guarded by "this".
  private String cursor;
  private final Set<String> blockedKeys = new HashSet<>();

  public OutboxRelay(
      OutboxStore store,
      OutboxPublisher publisher,
      RelaySettings settings,
      Clock clock,
      String relayId) {
    this(store, publisher, settings, clock, relayId, RelayListener.NONE);
  }

  public OutboxRelay(
      OutboxStore store,
      OutboxPublisher publisher,
      RelaySettings settings,
      Clock clock,
      String relayId,
      RelayListener listener) {
    this.listener = listener;
    this.store = store;
    this.settings = settings;
    this.clock = clock;
    this.relayId = relayId;
    this.destinations = new DestinationPublish(publisher);
    this.settlement = new RowSettlement(store, settings, clock, listener);
  }

  /**
   * One sweep: at most {@code scanLimit} rows examined and {@code publishLimit} published. Eligible
   * rows are gathered into batches (at most a page); each batch is claimed in one statement,
   * published in one call per provider and marked sent in one statement.
   */
  public synchronized SweepResult sweep() {
    long deadline = clock.millis() + settings.sweepDeadline().toMillis();
    Tally tally = new Tally();
    boolean lapEnded = false;
    sweep:
    while (tally.scanned < settings.scanLimit() && tally.published < settings.publishLimit()) {
      List<OutboxRow> page =
          store.page(cursor, Math.min(PAGE, settings.scanLimit() - tally.scanned));
      if (page.isEmpty()) {
        cursor = null;
        blockedKeys.clear();
        lapEnded = true;
        break;
      }
      RelayBatch batch = new RelayBatch();
      for (OutboxRow row : page) {
        if (tally.scanned >= settings.scanLimit()
            || tally.published + batch.rows().size() >= settings.publishLimit()) {
          relay(batch, tally, deadline);
          break sweep;
        }
        long now = clock.millis();
        // A row starts only while the claim, publish and status write still fit in the sweep.
        if (now + settings.reservedPerRow().toMillis() > deadline) {
          relay(batch, tally, deadline);
          break sweep;
        }
        if (!batch.admits(row)) {
          // The key's earlier row must be out before this one may go.
          relay(batch, tally, deadline);
          batch = new RelayBatch();
        }
        tally.scanned++;
        cursor = row.position();
        String key = row.blockingKey();
        if (key != null && blockedKeys.contains(key)) {
          tally.blocked++;
          continue;
        }
        if (row.availableAt() > now
            || row.leaseUntil() + settings.maxClockSkew().toMillis() > now) {
          if (key != null) {
            blockedKeys.add(key);
            if (batch.holds(key)) {
              batch.blockedBehind(key);
            }
          }
          tally.blocked++;
          continue;
        }
        batch.add(row);
      }
      relay(batch, tally, deadline);
    }
    return new SweepResult(
        tally.scanned,
        tally.published,
        tally.retried,
        tally.failed,
        tally.blocked,
        tally.overlaps,
        lapEnded);
  }

  /** Rows of a sweep were published in pages of at most this many. */
  private static final int PAGE = 500;

  /** What a sweep did so far. */
  private static final class Tally {
    int scanned;
    int published;
    int retried;
    int failed;
    int blocked;
    int overlaps;

    void count(RowSettlement.Outcome outcome) {
      switch (outcome) {
        case RETRY -> retried++;
        case FAILED -> failed++;
        case LOST -> overlaps++;
        case RETURNED -> blocked++;
      }
    }
  }

  /**
   * Checks each key's run and the claim range, claims, validates, publishes (fenced per call) and
   * settles one batch. A key "stops" at its first row that does not go: its later rows in the batch
   * do not go either, and it stays blocked for the lap.
   */
  private void relay(RelayBatch batch, Tally tally, long deadline) {
    if (batch.isEmpty()) {
      return;
    }
    // The cursor is already past these rows, so their keys are blocked FIRST and unblocked only
    // once their rows were marked sent: a store or publisher error anywhere below ends the sweep
    // with the keys still blocked, and no later row of a key can overtake a row whose outcome is
    // unknown.
    blockedKeys.addAll(batch.keys());
    Map<String, String> stopped = new HashMap<>();
    List<OutboxRow> claimable = inOrder(batch, stopped, tally);
    if (claimable.isEmpty()) {
      return;
    }
    // Asked before the claim: a lookup that fails then leaves nothing claimed.
    Set<String> ordered = destinations.keepingOrder(claimable);
    long leaseUntil = clock.millis() + settings.claimLease().toMillis();
    List<Boolean> claims = claim(claimable, leaseUntil);
    List<OutboxRow> claimed = new ArrayList<>();
    for (int i = 0; i < claimable.size(); i++) {
      OutboxRow row = claimable.get(i);
      String invalid;
      if (!claims.get(i)) {
        stop(row, stopped);
        tally.blocked++; // ordinary contention: another relay took it
      } else if (isStopped(row, stopped)) {
        tally.count(settlement.returned(row));
      } else if ((invalid = RowValidity.problem(row, settings.maxEnvelopeBytes())) != null) {
        stop(row, stopped);
        tally.count(settlement.invalid(row, row.claimVersion() + 1, invalid));
      } else {
        claimed.add(row);
      }
    }
    if (claimed.isEmpty()) {
      return;
    }
    // The fence, before every publish call: only while the claim still covers the publish, the
    // status write and the skew.
    List<DestinationPublish.Result> results =
        destinations.publish(
            claimed,
            ordered,
            () -> clock.millis() + settings.reservedPerRow().toMillis() <= leaseUntil,
            // A later wave also waits for the next sweep once this one's time is up.
            () ->
                clock.millis() + settings.reservedPerRow().toMillis()
                    <= Math.min(leaseUntil, deadline));
    List<OutboxRow> published = new ArrayList<>();
    List<OutboxRow> heldBack = new ArrayList<>();
    for (DestinationPublish.Result result : results) {
      OutboxRow row = result.row();
      switch (result.state()) {
        case ACCEPTED -> published.add(row);
        case FAILED -> {
          stop(row, stopped);
          tally.count(settlement.publishFailed(row, result.failure()));
        }
        case FENCED -> {
          stop(row, stopped);
          LOG.warning(
              () ->
                  "Outbox relay "
                      + relayId
                      + " fenced row "
                      + row.id()
                      + ": its claim would expire mid-publish");
          listener.overlap("fenced");
          tally.overlaps++;
        }
        case HELD_BACK -> {
          stop(row, stopped);
          heldBack.add(row);
        }
      }
    }
    markSent(published, stopped, tally);
    // Given back unpublished, no attempt counted; after the sent rows are marked, while the claim
    // still covers them.
    heldBack.forEach(row -> tally.count(settlement.returned(row)));
    for (String key : batch.keys()) {
      if (!stopped.containsKey(key) && !batch.isBlockedBehind(key)) {
        blockedKeys.remove(key); // all out: the key's next row may go in this lap
      }
    }
  }

  /**
   * The batch's rows that may be claimed: unkeyed rows, and each key's rows while they are its next
   * open rows in order (an earlier open row not in the batch, committed behind the cursor or held
   * by another relay, stops the key), with a claim version below the top of its range (checked
   * before the claim: on a real database the claim's version + 1 would overflow and fail the whole
   * claim statement, stalling the batch on every sweep).
   */
  private List<OutboxRow> inOrder(RelayBatch batch, Map<String, String> stopped, Tally tally) {
    int limit = batch.rows().size() + OPEN_POSITIONS_SLACK;
    Map<String, List<String>> open =
        store.openPositions(batch.orderingKeys(), batch.lastPosition(), limit);
    // A cut answer covers positions up to its highest only; rows past it are not vouched for.
    String vouchedUpTo = null;
    if (open.values().stream().mapToInt(List::size).sum() >= limit) {
      vouchedUpTo =
          open.values().stream().map(p -> p.get(p.size() - 1)).max(String::compareTo).orElse("");
    }
    Map<String, Integer> taken = new HashMap<>();
    List<OutboxRow> claimable = new ArrayList<>();
    for (OutboxRow row : batch.rows()) {
      String key = row.blockingKey();
      if (key != null) {
        List<String> positions = open.getOrDefault(key, List.of());
        int next = taken.merge(key, 1, Integer::sum) - 1;
        boolean isNext =
            !isStopped(row, stopped)
                && next < positions.size()
                && positions.get(next).equals(row.position())
                && (vouchedUpTo == null || row.position().compareTo(vouchedUpTo) <= 0);
        if (!isNext) {
          stop(row, stopped);
          tally.blocked++;
          continue;
        }
      }
      if (RowValidity.claimVersionInRange(row)) {
        claimable.add(row);
      } else {
        stop(row, stopped);
        tally.count(settlement.invalid(row, row.claimVersion(), "claim version out of range"));
      }
    }
    return claimable;
  }

  /** Claims the rows in one statement; one the database undid (a conflict) claimed none. */
  private List<Boolean> claim(List<OutboxRow> rows, long leaseUntil) {
    try {
      return store.claimAll(
          rows.stream().map(row -> new OutboxStore.Version(row.id(), row.claimVersion())).toList(),
          leaseUntil,
          relayId);
    } catch (RuntimeException e) {
      if (!StoreConflict.is(e)) {
        throw e;
      }
      listener.overlap("store-conflict");
      return java.util.Collections.nCopies(rows.size(), false);
    }
  }

  /** How many more open positions than batch rows are read: late commits of the batch's keys. */
  private static final int OPEN_POSITIONS_SLACK = 1_000;

  /**
   * Marked SENT only after the provider accepted them: a crash in between re-sends, never loses.
   */
  private void markSent(List<OutboxRow> published, Map<String, String> stopped, Tally tally) {
    if (published.isEmpty()) {
      return;
    }
    List<OutboxStore.Version> held =
        published.stream()
            .map(row -> new OutboxStore.Version(row.id(), row.claimVersion() + 1))
            .toList();
    List<Boolean> marked =
        StoreConflict.retried(
            () -> store.markAllSent(held, clock.millis(), relayId),
            () -> listener.overlap("store-conflict"));
    for (int i = 0; i < published.size(); i++) {
      OutboxRow row = published.get(i);
      if (marked.get(i)) {
        listener.published(row.topic());
        tally.published++;
      } else {
        stop(row, stopped);
        LOG.warning(
            () ->
                "Outbox relay "
                    + relayId
                    + " lost the claim on "
                    + row.id()
                    + " after publishing it (duplicate possible)");
        listener.overlap("claim-lost");
        tally.overlaps++;
      }
    }
  }

  /** {@code row} does not go, nor any later row of its key: blocking key → first such position. */
  private static void stop(OutboxRow row, Map<String, String> stopped) {
    if (row.blockingKey() != null) {
      stopped.merge(row.blockingKey(), row.position(), (a, b) -> a.compareTo(b) <= 0 ? a : b);
    }
  }

  /** Whether an earlier row of {@code row}'s key, or the row itself, did not go. */
  private static boolean isStopped(OutboxRow row, Map<String, String> stopped) {
    String from = row.blockingKey() == null ? null : stopped.get(row.blockingKey());
    return from != null && row.position().compareTo(from) >= 0;
  }

  /** Deletes settled rows older than the retention, at most {@code limit} per status. */
  public int purge(int limit) {
    return store.purgeSettled(clock.millis() - settings.retainSent().toMillis(), limit);
  }
}
