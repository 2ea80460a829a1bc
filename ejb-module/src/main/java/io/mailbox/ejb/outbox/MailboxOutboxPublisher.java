package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;

/**
 * Publishes a row through the adapter: the message id is the envelope id, so every re-send of a row
 * carries the same id and a consumer inbox drops the repeat. Called outside any transaction, so the
 * post is handed to the provider at once.
 */
final class MailboxOutboxPublisher implements OutboxPublisher {
  private final MailboxConnectionFactory connections;

  MailboxOutboxPublisher(MailboxConnectionFactory connections) {
    this.connections = connections;
  }

  @Override
  public void publish(OutboxRow row) {
    try (MailboxConnection connection = connections.getConnection()) {
      connection.post(row.toMessage());
    }
  }

  /**
   * One post call for the rows: if it fails, every row is reported failed (some may have been
   * stored; the relay retries them and the consumer inbox drops the repeats).
   */
  @Override
  public java.util.List<Exception> publishAll(java.util.List<OutboxRow> rows) {
    try (MailboxConnection connection = connections.getConnection()) {
      connection.postAll(rows.stream().map(OutboxRow::toMessage).toList());
      return java.util.Collections.nCopies(rows.size(), null);
    } catch (RuntimeException e) {
      return java.util.Collections.nCopies(rows.size(), e);
    }
  }
}
