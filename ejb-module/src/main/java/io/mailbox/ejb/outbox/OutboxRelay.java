package io.mailbox.ejb.outbox;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Walks the pending set in laps, keyset-paged on position. Eligible rows are relayed in batches of
 * distinct ordering keys: check the claim version's range, claim (compare-and-set on each row's
 * version, with a lease, in one transaction), validate, fence (is there still time to publish and
 * write the outcome?), publish (one call per provider, see {@link DestinationPublish}), mark sent
 * (one transaction). Plain Java over {@link OutboxStore} and {@link OutboxPublisher}, so its rules
 * are unit-tested without a database.
 *
 * <ul>
 *   <li>A failed row, a row backing off, a row held by another relay, or one whose claim or status
 *       write was lost <b>blocks its ordering key</b> for the rest of the lap: a later row of that
 *       key is never published first. Unkeyed rows never block. A batch's keys are blocked before
 *       it is claimed and unblocked per row marked sent, so a store error mid-batch (which ends the
 *       sweep) leaves them blocked for the rest of the lap. Before each claim the relay also asks
 *       the store for each key's earliest open row: positions are stamped at write and rows become
 *       visible at commit, so the cursor may already have passed a key's earlier rows (or another
 *       relay holds them); such a key is blocked too.
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
  static final String INVALID_ROW = "invalid-row";

  private final OutboxStore store;
  private final RelaySettings settings;
  private final Clock clock;
  private final String relayId;
  private final RelayListener listener;
  private final DestinationPublish destinations;

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
  }

  /**
   * One sweep: at most {@code scanLimit} rows examined and {@code publishLimit} published. Eligible
   * rows are gathered into batches of distinct ordering keys (at most a page); each batch is
   * claimed in one transaction, published in one call and marked sent in one transaction.
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
      Batch batch = new Batch();
      for (OutboxRow row : page) {
        if (tally.scanned >= settings.scanLimit()
            || tally.published + batch.rows.size() >= settings.publishLimit()) {
          relay(batch, tally);
          break sweep;
        }
        long now = clock.millis();
        // A row starts only while the claim, publish and status write still fit in the sweep.
        if (now + settings.reservedPerRow().toMillis() > deadline) {
          relay(batch, tally);
          break sweep;
        }
        String key = row.blockingKey();
        if (key != null && batch.keys.contains(key)) {
          // One row per key in a batch: the earlier one must be out before this one may go.
          relay(batch, tally);
          batch = new Batch();
        }
        tally.scanned++;
        cursor = row.position();
        if (key != null && blockedKeys.contains(key)) {
          tally.blocked++;
          continue;
        }
        if (row.status() == OutboxStatus.FAILED
            || row.availableAt() > now
            || row.leaseUntil() + settings.maxClockSkew().toMillis() > now) {
          block(key);
          tally.blocked++;
          continue;
        }
        batch.add(row);
      }
      relay(batch, tally);
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
  private static final int PAGE = 100;

  /** What a sweep did so far. */
  private static final class Tally {
    int scanned;
    int published;
    int retried;
    int failed;
    int blocked;
    int overlaps;
  }

  /** Eligible rows gathered for one claim, one publish call and one status write. */
  private static final class Batch {
    final List<OutboxRow> rows = new ArrayList<>();
    final Set<String> keys = new HashSet<>();

    /** The position of the batch's last row (rows are added in position order). */
    String lastPosition() {
      return rows.get(rows.size() - 1).position();
    }

    Set<String> orderingKeys() {
      Set<String> orderingKeys = new HashSet<>();
      for (OutboxRow row : rows) {
        if (row.orderingKey() != null) {
          orderingKeys.add(row.orderingKey());
        }
      }
      return orderingKeys;
    }

    void add(OutboxRow row) {
      rows.add(row);
      if (row.blockingKey() != null) {
        keys.add(row.blockingKey());
      }
    }
  }

  /**
   * Checks the claim range, claims, validates, publishes (fenced per call) and settles one batch.
   */
  private void relay(Batch batch, Tally tally) {
    if (batch.rows.isEmpty()) {
      return;
    }
    // The cursor is already past these rows, so their keys are blocked FIRST and unblocked only for
    // a row marked sent: a store or publisher error anywhere below ends the sweep with the keys
    // still blocked, and no later row of a key can overtake a row whose outcome is unknown.
    blockedKeys.addAll(batch.keys);
    Map<String, String> earliestOpen =
        store.earliestOpenPositions(batch.orderingKeys(), batch.lastPosition());
    List<OutboxRow> claimable = new ArrayList<>();
    for (OutboxRow row : batch.rows) {
      if (hasEarlierOpenRow(row, earliestOpen)) {
        // The lap cursor passed an earlier row of this key before its transaction committed (a
        // position is stamped at write, not at commit), or another relay holds it: the key stays
        // blocked, and the earlier row goes first, from this relay's next lap or another relay.
        tally.blocked++;
      } else if (RowValidity.claimVersionInRange(row)) {
        claimable.add(row);
      } else {
        // Checked before the claim: on a real database the claim's version + 1 overflows and
        // fails the whole claim transaction, which would stall the batch on every sweep.
        failInvalid(row, row.claimVersion(), "claim version out of range", tally);
      }
    }
    if (claimable.isEmpty()) {
      return;
    }
    long leaseUntil = clock.millis() + settings.claimLease().toMillis();
    List<Boolean> claims =
        store.claimAll(
            claimable.stream()
                .map(row -> new OutboxStore.Version(row.id(), row.claimVersion()))
                .toList(),
            leaseUntil);
    List<OutboxRow> claimed = new ArrayList<>();
    for (int i = 0; i < claimable.size(); i++) {
      OutboxRow row = claimable.get(i);
      if (!claims.get(i)) {
        tally.blocked++; // ordinary contention: another relay took it
        continue;
      }
      String invalid = RowValidity.problem(row, settings.maxEnvelopeBytes());
      if (invalid != null) {
        failInvalid(row, row.claimVersion() + 1, invalid, tally);
        continue;
      }
      claimed.add(row);
    }
    if (claimed.isEmpty()) {
      return;
    }
    // The fence, before every publish call: only while the claim still covers the publish, the
    // status write and the skew.
    List<DestinationPublish.Result> results =
        destinations.publish(
            claimed, () -> clock.millis() + settings.reservedPerRow().toMillis() <= leaseUntil);
    List<OutboxRow> published = new ArrayList<>();
    for (DestinationPublish.Result result : results) {
      OutboxRow row = result.row();
      switch (result.state()) {
        case ACCEPTED -> published.add(row);
        case FAILED -> count(settlePublishFailure(row, result.failure()), tally);
        case FENCED -> {
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
      }
    }
    if (published.isEmpty()) {
      return;
    }
    // Marked SENT only after the provider accepted them: a crash in between re-sends, never loses.
    List<Boolean> marked =
        store.markAllSent(
            published.stream()
                .map(row -> new OutboxStore.Version(row.id(), row.claimVersion() + 1))
                .toList(),
            clock.millis(),
            relayId);
    for (int i = 0; i < published.size(); i++) {
      OutboxRow row = published.get(i);
      if (marked.get(i)) {
        listener.published(row.topic());
        tally.published++;
        unblock(row.blockingKey()); // out: the key's next row may go in this lap
      } else {
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

  private void failInvalid(OutboxRow row, long held, String reason, Tally tally) {
    LOG.warning(
        () -> "Outbox row " + row.id() + " is invalid (" + reason + "): failed, never published");
    count(settleFailed(row, held, row.attempts(), INVALID_ROW + ": " + reason), tally);
  }

  private void count(Outcome outcome, Tally tally) {
    switch (outcome) {
      case RETRY -> tally.retried++;
      case FAILED -> tally.failed++;
      case LOST -> tally.overlaps++;
      default -> throw new IllegalStateException("not a failure outcome: " + outcome);
    }
  }

  private enum Outcome {
    RETRY,
    FAILED,
    LOST
  }

  /** A failed publish backs off; after {@code maxAttempts} the row is failed for good. */
  private Outcome settlePublishFailure(OutboxRow row, Exception e) {
    long held = row.claimVersion() + 1;
    listener.publishFailed(row.topic());
    int attempts = row.attempts() + 1;
    String error = bounded(e);
    if (attempts >= settings.maxAttempts()) {
      LOG.log(
          Level.WARNING,
          "Outbox row {0} failed after {1} attempts: {2}",
          new Object[] {row.id(), attempts, error});
      return settleFailed(row, held, attempts, error);
    }
    long next = clock.millis() + settings.backoffAfter(attempts).toMillis();
    if (store.markRetry(row.id(), held, attempts, next, error)) {
      return Outcome.RETRY;
    }
    listener.overlap("claim-lost");
    return Outcome.LOST;
  }

  private Outcome settleFailed(OutboxRow row, long held, int attempts, String error) {
    if (store.markFailed(row.id(), held, attempts, error)) {
      listener.poisoned(row.topic());
      return Outcome.FAILED;
    }
    listener.overlap("claim-lost");
    return Outcome.LOST;
  }

  private static boolean hasEarlierOpenRow(OutboxRow row, Map<String, String> earliestOpen) {
    String key = row.blockingKey();
    if (key == null) {
      return false;
    }
    String earliest = earliestOpen.get(key);
    return earliest != null && earliest.compareTo(row.position()) < 0;
  }

  private void block(String key) {
    if (key != null) {
      blockedKeys.add(key);
    }
  }

  private void unblock(String key) {
    if (key != null) {
      blockedKeys.remove(key);
    }
  }

  /** The failure's type and message without control characters, cut to 1024 characters. */
  static String bounded(Throwable failure) {
    String text =
        failure.getClass().getName()
            + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    text = text.replaceAll("\\p{Cntrl}", " ");
    return text.length() <= 1024 ? text : text.substring(0, 1024);
  }

  /** Deletes settled rows older than the retention, at most {@code limit} per status. */
  public int purge(int limit) {
    return store.purgeSettled(clock.millis() - settings.retainSent().toMillis(), limit);
  }
}
