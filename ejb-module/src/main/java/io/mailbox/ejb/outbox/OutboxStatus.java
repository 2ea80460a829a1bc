package io.mailbox.ejb.outbox;

/** Where an outbox row is in its life. */
public enum OutboxStatus {
  /** Committed, waiting for (or between) relay attempts. */
  PENDING,
  /** Published and settled. */
  SENT,
  /**
   * Gave up after max attempts, or undecodable ({@code invalid-row}); blocks its key until
   * released.
   */
  FAILED,
  /** Released by an operator without publishing. */
  DISCARDED
}
