package io.mailbox.ejb.inbox;

/**
 * What {@link InboxTransactions#release} did to one parked marker.
 *
 * @param result what happened
 * @param row the marker as it was, with its envelope and source address; {@code null} when there
 *     was no parked marker
 */
public record InboxRelease(Result result, InboxRow row) {

  /** The outcomes of a release; only {@code RETRY} and {@code DISCARDED} changed anything. */
  public enum Result {
    /** Retry: the marker was deleted; re-post {@code row.envelope()} to its source address. */
    RETRY,
    /** Discard: the marker stays, as discarded, with its envelope cleared. */
    DISCARDED,
    /** Nothing changed: no parked marker has that id (released, purged or never parked). */
    NOT_PARKED,
    /** Retry refused, nothing changed: the envelope was too large to keep when it was parked. */
    NO_STORED_ENVELOPE,
    /** Retry refused, nothing changed: the address the delivery came from was not recorded. */
    NO_SOURCE_ADDRESS
  }
}
