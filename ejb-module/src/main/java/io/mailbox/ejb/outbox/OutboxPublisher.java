package io.mailbox.ejb.outbox;

/** Hands one outbox row to its transport; returns once the provider accepted it. */
@FunctionalInterface
public interface OutboxPublisher {
  /**
   * @param row the claimed row (address, envelope, id)
   * @throws Exception when the provider refused or did not confirm: the row is retried later
   */
  void publish(OutboxRow row) throws Exception;
}
