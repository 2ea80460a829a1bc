package io.mailbox.connector.api;

/** Where one copy of a message is. */
public enum CopyState {
  /** Waiting in its queue; the next fetch can take it. */
  QUEUED,
  /** Handed out under a lease, not settled yet. */
  IN_FLIGHT,
  /**
   * Written off at the end of a dead-letter chain: never handed out again, only peeked or purged.
   */
  PARKED
}
