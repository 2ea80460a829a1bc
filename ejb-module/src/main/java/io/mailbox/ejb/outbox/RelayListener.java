package io.mailbox.ejb.outbox;

/**
 * What a relay reports as it works, for metrics. Topics only: never a key, tenant or error text.
 * Every method defaults to doing nothing.
 */
public interface RelayListener {
  /** A row was published and marked sent. */
  default void published(String topic) {}

  /** A publish failed (the row backs off or, at max attempts, is failed). */
  default void publishFailed(String topic) {}

  /** A row was failed for good: max attempts, or undecodable ({@code invalid-row}). */
  default void poisoned(String topic) {}

  /**
   * Two relays met on one row: {@code fenced} (the claim would expire before the publish ended, so
   * it did not start), {@code claim-lost} (a status write found another version; after a publish
   * that means a duplicate is possible) or {@code store-conflict} (the database undid a batch
   * statement that ran into another relay's: {@link StoreConflict}).
   */
  default void overlap(String kind) {}

  RelayListener NONE = new RelayListener() {};
}
