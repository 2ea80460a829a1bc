package io.mailbox.ejb.inbox;

/** What an inbox row records. */
public enum InboxStatus {
  /** The handler ran and committed with this marker. */
  PROCESSED,
  /** A failure counter (its own row, written outside the handler's rolled-back transaction). */
  FAILURES,
  /**
   * Gave up after max attempts (or a rejection no retry can fix): skipped, envelope kept for
   * release.
   */
  PARKED,
  /** Released by an operator as discard: stays skipped, envelope cleared. */
  DISCARDED
}
