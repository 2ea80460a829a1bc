package io.mailbox.ejb.outbox;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The first half of relaying a batch: check that each key's rows are an unbroken run of its open
 * rows and the claim version's range, claim them (one statement, with a lease) and validate them.
 * What comes out is a {@link ClaimedBatch} for {@link BatchFinish}.
 */
final class BatchClaim {
  /** How many more open positions than batch rows are read: late commits of the batch's keys. */
  private static final int OPEN_POSITIONS_SLACK = 1_000;

  private final OutboxStore store;
  private final RelaySettings settings;
  private final Clock clock;
  private final String relayId;
  private final RelayListener listener;
  private final RowSettlement settlement;
  private final DestinationPublish destinations;

  BatchClaim(
      OutboxStore store,
      RelaySettings settings,
      Clock clock,
      String relayId,
      RelayListener listener,
      RowSettlement settlement,
      DestinationPublish destinations) {
    this.store = store;
    this.settings = settings;
    this.clock = clock;
    this.relayId = relayId;
    this.listener = listener;
    this.settlement = settlement;
    this.destinations = destinations;
  }

  /**
   * Checks each key's run and the claim range, claims and validates one batch. A key "stops" at its
   * first row that does not go: its later rows in the batch do not go either, and it is blocked for
   * the lap. {@code going}: the positions of the rows in flight, which count as going.
   */
  ClaimedBatch claim(RelayBatch batch, Set<String> going, RelayTally tally) {
    StoppedKeys stopped = new StoppedKeys();
    List<OutboxRow> claimable = inOrder(batch, going, stopped, tally);
    List<OutboxRow> claimed = new ArrayList<>();
    if (claimable.isEmpty()) {
      return new ClaimedBatch(Set.copyOf(batch.keys()), claimed, stopped, Set.of(), 0);
    }
    // Asked before the claim: a lookup that fails then leaves nothing claimed.
    Set<String> ordered = destinations.keepingOrder(claimable);
    long leaseUntil = clock.millis() + settings.claimLease().toMillis();
    List<Boolean> claims = claimAll(claimable, leaseUntil);
    for (int i = 0; i < claimable.size(); i++) {
      OutboxRow row = claimable.get(i);
      String invalid;
      if (!claims.get(i)) {
        stopped.stop(row);
        tally.blocked++; // ordinary contention: another relay took it
      } else if (stopped.isStopped(row)) {
        tally.count(settlement.returned(row));
      } else if ((invalid = RowValidity.problem(row, settings.maxEnvelopeBytes())) != null) {
        stopped.stop(row);
        tally.count(settlement.invalid(row, row.claimVersion() + 1, invalid));
      } else {
        claimed.add(row);
      }
    }
    return new ClaimedBatch(Set.copyOf(batch.keys()), claimed, stopped, ordered, leaseUntil);
  }

  /**
   * The batch's rows that may be claimed: unkeyed rows, and each key's rows while they are its next
   * open rows in order (an earlier open row not in the batch, committed behind the cursor or held
   * by another relay, stops the key; the rows of the batch in flight count as going), with a claim
   * version below the top of its range (checked before the claim: on a real database the claim's
   * version + 1 would overflow and fail the whole claim statement, stalling the batch on every
   * sweep).
   */
  private List<OutboxRow> inOrder(
      RelayBatch batch, Set<String> going, StoppedKeys stopped, RelayTally tally) {
    int limit = batch.rows().size() + going.size() + OPEN_POSITIONS_SLACK;
    Map<String, List<String>> open =
        store.openPositions(batch.orderingKeys(), batch.lastPosition(), limit);
    // A cut answer covers positions up to its highest only; rows past it are not vouched for.
    String vouchedUpTo = null;
    if (open.values().stream().mapToInt(List::size).sum() >= limit) {
      vouchedUpTo =
          open.values().stream().map(p -> p.get(p.size() - 1)).max(String::compareTo).orElse("");
    }
    Map<String, List<String>> notGoing = new HashMap<>();
    open.forEach(
        (key, positions) ->
            notGoing.put(key, positions.stream().filter(p -> !going.contains(p)).toList()));
    Map<String, Integer> taken = new HashMap<>();
    List<OutboxRow> claimable = new ArrayList<>();
    for (OutboxRow row : batch.rows()) {
      String key = row.blockingKey();
      if (key != null) {
        List<String> positions = notGoing.getOrDefault(key, List.of());
        int next = taken.merge(key, 1, Integer::sum) - 1;
        boolean isNext =
            !stopped.isStopped(row)
                && next < positions.size()
                && positions.get(next).equals(row.position())
                && (vouchedUpTo == null || row.position().compareTo(vouchedUpTo) <= 0);
        if (!isNext) {
          stopped.stop(row);
          tally.blocked++;
          continue;
        }
      }
      if (RowValidity.claimVersionInRange(row)) {
        claimable.add(row);
      } else {
        stopped.stop(row);
        tally.count(settlement.invalid(row, row.claimVersion(), "claim version out of range"));
      }
    }
    return claimable;
  }

  /** Claims the rows in one statement; one the database undid (a conflict) claimed none. */
  private List<Boolean> claimAll(List<OutboxRow> rows, long leaseUntil) {
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
}
