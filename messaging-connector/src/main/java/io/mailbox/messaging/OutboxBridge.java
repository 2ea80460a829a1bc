package io.mailbox.messaging;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.OutboxWriter;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * For an outgoing channel with {@code outbox.topic}: while the sending thread is inside a JTA
 * transaction, a message becomes an outbox row in that transaction (published by the relay after
 * commit, to the channel's address) instead of a post. The outbox is found through its
 * application-wide JNDI name, so applications without the outbox never need {@code ejb-module}.
 */
final class OutboxBridge {
  private final String topic;

  OutboxBridge(String topic) {
    // A channel with a bad topic fails at start, not at its first send.
    io.mailbox.connector.api.VersionedTopic.parse(topic, "outbox.topic");
    this.topic = topic;
  }

  /** Whether this thread is inside an active JTA transaction. */
  static boolean inTransaction() {
    return CallerTransaction.isActive();
  }

  /**
   * Writes the payload (JSON, or a JSON string for plain text) as an event to {@code address}, with
   * the message's headers (its ordering key, de-duplication id and caller headers).
   */
  void write(String address, String payload, String id, java.util.Map<String, String> headers) {
    OutboxWriter outbox;
    try {
      outbox = (OutboxWriter) new InitialContext().lookup(OutboxWriter.JNDI_NAME);
    } catch (NamingException e) {
      throw new MailboxException(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "outbox.topic is set but the application has no outbox (bundle ejb-module; see docs/outbox.md)",
          e);
    }
    outbox.write(address, topic, payload, id, headers);
  }
}
