package io.mailbox.ejb.inbox;

/** How the inbox settled one delivery; every outcome means "acknowledge it". */
public enum InboxOutcome {
  /** The handler ran and committed. */
  PROCESSED,
  /** A marker already existed (an earlier or concurrent delivery handled it): skipped. */
  DUPLICATE,
  /** Given up (max attempts, or a rejection a retry cannot fix): parked with its envelope. */
  PARKED
}
