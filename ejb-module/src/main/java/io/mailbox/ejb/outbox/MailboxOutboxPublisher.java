package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.MailMessage;
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
      connection.post(message(row));
    }
  }

  /** The message a row becomes, whatever carries it. */
  static MailMessage message(OutboxRow row) {
    return MailMessage.to(row.address())
        .id(row.id())
        .header("event-topic", row.topic())
        .header("content-type", "application/vnd.mailbox.event+json")
        .body(row.envelope())
        .build();
  }
}
