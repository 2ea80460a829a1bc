package io.mailbox.ejb.inbox;

import java.util.List;
import java.util.Optional;

/**
 * The inbox's transactions. Each method is its own transaction; {@link #runWithMarker} is the one
 * the handler's writes join. In the server: {@link JtaInboxTransactions}; in the database suites a
 * resource-local twin.
 */
public interface InboxTransactions {

  Optional<InboxRow> find(String id);

  /**
   * One transaction: when the marker exists already, nothing else (false: a redelivery); otherwise
   * the marker is inserted (and flushed) FIRST, then {@code work} runs, then commit (true). A
   * marker a concurrent delivery inserted meanwhile collides on the key; that, or a failure of the
   * work, rolls everything back and is rethrown. The look-up shares the transaction: a message's
   * first delivery costs one transaction, not two (bin/bench inbox).
   */
  boolean runWithMarker(InboxRow marker, Work work) throws Exception;

  /** Adds one to the failure counter row (created on first use); returns the new count. */
  int recordFailure(InboxRow counter, String error);

  /** Parks the delivery (marker with its envelope); false when any marker already exists. */
  boolean park(InboxRow parked);

  /** Parked markers, oldest first, without envelopes. */
  List<InboxRow> parked(int limit);

  /**
   * Releases a parked marker. Retry deletes it and returns it with its envelope and source address
   * (to re-post); a retry is refused, changing nothing, when either was not kept, since a deleted
   * marker whose message cannot be re-posted would lose the delivery. Discard keeps it as discarded
   * with the envelope cleared. Changes nothing when the row is not parked.
   */
  InboxRelease release(String id, boolean retry, long now);

  /** Deletes rows of every status older than {@code before}, at most {@code limit} per status. */
  int purge(long before, int limit);

  long count(InboxStatus status);

  /** What runs inside {@link #runWithMarker}. */
  @FunctionalInterface
  interface Work {
    void run() throws Exception;
  }
}
