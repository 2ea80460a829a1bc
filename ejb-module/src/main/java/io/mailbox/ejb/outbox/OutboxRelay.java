package io.mailbox.ejb.outbox;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.logging.Level;
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
 * <p><b>Pipelined</b> when given an executor: while one batch is published and marked sent there
 * ({@link BatchFinish}), the relay reads and claims the next. The next batch's publish starts only
 * after the one before it is settled, and its rows of a key that stopped there are given back
 * unpublished, so per-key order is as without it. Its order check counts the rows still in flight
 * as going (they are this relay's, claimed); if one does not go, its key stops and the later rows
 * are given back. With the default direct executor every batch is finished before the next is read.
 *
 * <p>At least once, never exactly once: a relay that pauses after the fence can publish a row
 * another relay publishes too; the envelope id (the message id) lets a consumer inbox drop the
 * repeat.
 */
public final class OutboxRelay {
  private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());

  /** Rows of a sweep are published in pages of at most this many. */
  private static final int PAGE = 500;

  private final OutboxStore store;
  private final RelaySettings settings;
  private final Clock clock;
  private final String relayId;
  private final RowSettlement settlement;
  private final BatchClaim claim;
  private final BatchFinish finish;
  private final Executor finishing;

  // The lap: where the scan stands and which keys are blocked until it ends, and the batch being
  // finished on the executor. Guarded by "this".
  private String cursor;
  private final Set<String> blockedKeys = new HashSet<>();
  private InFlight inFlight;

  /** A claimed batch and its finish, running or done. */
  private record InFlight(ClaimedBatch batch, CompletableFuture<RelayTally> finished) {}

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
    this(store, publisher, settings, clock, relayId, listener, Runnable::run);
  }

  /**
   * @param finishing where a claimed batch is published and marked sent: a thread of its own lets
   *     the relay claim the next batch meanwhile; {@code Runnable::run} finishes each batch first
   */
  public OutboxRelay(
      OutboxStore store,
      OutboxPublisher publisher,
      RelaySettings settings,
      Clock clock,
      String relayId,
      RelayListener listener,
      Executor finishing) {
    this.store = store;
    this.settings = settings;
    this.clock = clock;
    this.relayId = relayId;
    this.finishing = finishing;
    this.settlement = new RowSettlement(store, settings, clock, listener);
    DestinationPublish destinations = new DestinationPublish(publisher);
    this.claim =
        new BatchClaim(store, settings, clock, relayId, listener, settlement, destinations);
    this.finish =
        new BatchFinish(store, settings, clock, relayId, listener, settlement, destinations);
  }

  /**
   * One sweep: at most {@code scanLimit} rows examined and {@code publishLimit} published. Eligible
   * rows are gathered into batches (at most a page); each batch is claimed in one statement,
   * published in one call per provider and marked sent in one statement. Returns once every batch
   * it claimed is settled.
   */
  public synchronized SweepResult sweep() {
    RelayTally tally = new RelayTally();
    try {
      boolean lapEnded =
          gatherAndRelay(tally, clock.millis() + settings.sweepDeadline().toMillis());
      settleInFlight(tally, null);
      return tally.result(lapEnded);
    } catch (RuntimeException | Error e) {
      abandonInFlight();
      throw e;
    }
  }

  /** The sweep's scan; true when it reached the end of the pending set. */
  private boolean gatherAndRelay(RelayTally tally, long deadline) {
    while (tally.scanned < settings.scanLimit()
        && tally.published + inFlightRows() < settings.publishLimit()) {
      List<OutboxRow> page =
          store.page(cursor, Math.min(PAGE, settings.scanLimit() - tally.scanned));
      if (page.isEmpty()) {
        settleInFlight(tally, null); // its stopped keys belong to this lap, not the next
        cursor = null;
        blockedKeys.clear();
        return true;
      }
      RelayBatch batch = new RelayBatch();
      for (OutboxRow row : page) {
        if (tally.scanned >= settings.scanLimit()
            || tally.published + inFlightRows() + batch.rows().size() >= settings.publishLimit()) {
          relay(batch, tally, deadline);
          return false;
        }
        long now = clock.millis();
        // A row starts only while the claim, publish and status write still fit in the sweep.
        if (now + settings.reservedPerRow().toMillis() > deadline) {
          relay(batch, tally, deadline);
          return false;
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
    return false;
  }

  private int inFlightRows() {
    return inFlight == null ? 0 : inFlight.batch().rows().size();
  }

  /**
   * Claims one batch, settles the batch in flight before it, and starts this one's finish. The
   * cursor is already past these rows, so a store or publisher error anywhere leaves their keys
   * blocked for the lap, and rows this call claimed but did not start are given back: no later row
   * of a key can overtake a row whose outcome is unknown. Keys a later, ineligible row blocked
   * ({@link RelayBatch#blockedBehind}) are blocked already.
   */
  private void relay(RelayBatch batch, RelayTally tally, long deadline) {
    if (batch.isEmpty()) {
      return;
    }
    ClaimedBatch claimed = null;
    try {
      Set<String> going = inFlight == null ? Set.of() : inFlight.batch().positions();
      claimed = claim.claim(batch, going, tally);
      boolean waited = inFlight != null;
      settleInFlight(tally, claimed);
      if (waited
          && !claimed.rows().isEmpty()
          && clock.millis() + settings.reservedPerRow().toMillis() > claimed.leaseUntil()) {
        // It waited for the batch before it until its claim no longer covers a publish: given
        // back now (any relay may take the rows at once) rather than fenced (held a lease long).
        giveBack(claimed, tally);
      }
      blockedKeys.addAll(claimed.stopped().keys());
      if (claimed.rows().isEmpty()) {
        return;
      }
      ClaimedBatch started = claimed;
      inFlight =
          new InFlight(
              started,
              CompletableFuture.supplyAsync(() -> finish.finish(started, deadline), finishing));
    } catch (RuntimeException | Error e) {
      blockedKeys.addAll(batch.keys());
      if (claimed != null) {
        // Its finish never started: starting it is the last step above.
        giveBackQuietly(claimed.rows());
      }
      throw e;
    }
    if (inFlight.finished().isDone()) {
      // Finished already (always, on the direct executor): its stopped keys are blocked before
      // the next batch is gathered rather than given back after its claim.
      settleInFlight(tally, null);
    }
  }

  /** Gives back all of {@code batch}'s rows unpublished; their keys stop. */
  private void giveBack(ClaimedBatch batch, RelayTally tally) {
    for (OutboxRow row : batch.rows()) {
      batch.stopped().stop(row);
      tally.count(settlement.returned(row));
    }
    batch.rows().clear();
  }

  /**
   * Waits for the batch in flight and takes in its outcome: its counts, and its stopped keys, now
   * blocked for the lap. Rows of those keys in {@code next} (claimed meanwhile) are given back
   * unpublished. A failed finish blocks all its keys before its error ends the sweep.
   */
  private void settleInFlight(RelayTally tally, ClaimedBatch next) {
    InFlight flying = inFlight;
    if (flying == null) {
      return;
    }
    inFlight = null;
    RelayTally finished;
    try {
      finished = flying.finished().join();
    } catch (CompletionException e) {
      blockedKeys.addAll(flying.batch().keys());
      throw unwrapped(e);
    }
    tally.add(finished);
    Set<String> stopped = flying.batch().stopped().keys();
    blockedKeys.addAll(stopped);
    if (next == null || stopped.isEmpty()) {
      return;
    }
    List<OutboxRow> behind = new ArrayList<>();
    for (OutboxRow row : next.rows()) {
      if (row.blockingKey() != null && stopped.contains(row.blockingKey())) {
        next.stopped().stop(row);
        behind.add(row);
      }
    }
    // Given back before they leave the batch: if the store fails midway, the caller gives back
    // what the batch still holds (a row given back twice is left as it was).
    behind.forEach(row -> tally.count(settlement.returned(row)));
    next.rows().removeAll(behind);
  }

  /** A sweep ends in error: the batch in flight is waited for and its keys stay blocked. */
  private void abandonInFlight() {
    InFlight flying = inFlight;
    inFlight = null;
    if (flying != null) {
      blockedKeys.addAll(flying.batch().keys());
      try {
        flying.finished().join();
      } catch (CompletionException e) {
        LOG.log(Level.FINE, "Outbox relay " + relayId + ": a batch in flight failed too", e);
      }
    }
  }

  /** Claimed rows a failed sweep did not start: given back so they need not wait for a lease. */
  private void giveBackQuietly(List<OutboxRow> rows) {
    try {
      rows.forEach(settlement::returned);
    } catch (RuntimeException e) {
      // The store is failing: the rest wait for their lease to end, as after any store error.
      LOG.log(Level.FINE, "Outbox relay " + relayId + " could not give back claimed rows", e);
    }
  }

  private static RuntimeException unwrapped(CompletionException e) {
    Throwable cause = e.getCause() == null ? e : e.getCause();
    if (cause instanceof Error error) {
      throw error;
    }
    return cause instanceof RuntimeException runtime ? runtime : e;
  }

  /** Deletes settled rows older than the retention, at most {@code limit} per status. */
  public int purge(int limit) {
    return store.purgeSettled(clock.millis() - settings.retainSent().toMillis(), limit);
  }
}
