package io.mailbox.ejb.outbox;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * The second half of relaying a batch, after its claim: publish (fenced before every call, a key's
 * rows in order: {@link DestinationPublish}), mark the accepted rows sent (one statement), and give
 * back the rows held back. It touches none of the relay's lap (cursor, blocked keys), so the relay
 * may run it on another thread while it reads and claims the next batch ({@link OutboxRelay}).
 */
final class BatchFinish {
  private static final Logger LOG = Logger.getLogger(BatchFinish.class.getName());

  private final OutboxStore store;
  private final RelaySettings settings;
  private final Clock clock;
  private final String relayId;
  private final RelayListener listener;
  private final DestinationPublish destinations;
  private final RowSettlement settlement;

  BatchFinish(
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
   * Publishes and settles {@code batch}; keys whose rows did not all go are added to its {@link
   * ClaimedBatch#stopped()}. A store error ends it with the exception (the caller blocks the keys).
   *
   * @param deadline the sweep's: a later wave waits for the next sweep once it is near
   */
  RelayTally finish(ClaimedBatch batch, long deadline) {
    RelayTally tally = new RelayTally();
    if (batch.rows().isEmpty()) {
      return tally;
    }
    StoppedKeys stopped = batch.stopped();
    long leaseUntil = batch.leaseUntil();
    // The fence, before every publish call: only while the claim still covers the publish, the
    // status write and the skew.
    List<DestinationPublish.Result> results =
        destinations.publish(
            batch.rows(),
            batch.ordered(),
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
          stopped.stop(row);
          tally.count(settlement.publishFailed(row, result.failure()));
        }
        case FENCED -> {
          stopped.stop(row);
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
          stopped.stop(row);
          heldBack.add(row);
        }
      }
    }
    markSent(published, stopped, tally);
    // Given back unpublished, no attempt counted; after the sent rows are marked, while the claim
    // still covers them.
    heldBack.forEach(row -> tally.count(settlement.returned(row)));
    return tally;
  }

  /**
   * Marked SENT only after the provider accepted them: a crash in between re-sends, never loses.
   */
  private void markSent(List<OutboxRow> published, StoppedKeys stopped, RelayTally tally) {
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
        stopped.stop(row);
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
}
