package io.mailbox.messaging;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.outbox.Outbox;
import io.mailbox.ejb.outbox.WriteOptions;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.io.StringReader;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * For an outgoing channel with {@code outbox.topic}: while the sending thread is inside a JTA
 * transaction, a message becomes an outbox row in that transaction (published by the relay after
 * commit, to the channel's address) instead of a post. Loaded only when a channel asks for it, so
 * applications without the outbox never need {@code ejb-module}.
 */
final class OutboxBridge {
  private final IntegrationEventDefinition<JsonValue> definition;

  OutboxBridge(String topic) {
    int suffix = topic.lastIndexOf(".v");
    int version;
    try {
      version = Integer.parseInt(topic.substring(suffix + 2));
    } catch (RuntimeException e) {
      throw new MailboxException(
          ErrorCode.INVALID_ACTIVATION,
          "outbox.topic '" + topic + "' must end in .v<version>, e.g. orders.placed.v1");
    }
    this.definition =
        IntegrationEventDefinition.define(topic.substring(0, suffix), version, topic, data -> data);
  }

  /** Whether this thread is inside an active JTA transaction. */
  static boolean inTransaction() {
    try {
      TransactionSynchronizationRegistry registry =
          (TransactionSynchronizationRegistry)
              new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
      return registry.getTransactionStatus() == Status.STATUS_ACTIVE;
    } catch (NamingException e) {
      return false;
    }
  }

  /** Writes the payload (JSON, or a JSON string for plain text) as an event to {@code address}. */
  void write(String address, String payload, String id) {
    Outbox outbox;
    try {
      outbox = (Outbox) new InitialContext().lookup("java:module/Outbox!" + Outbox.class.getName());
    } catch (NamingException e) {
      throw new MailboxException(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "outbox.topic is set but the application has no outbox (bundle ejb-module; see docs/outbox.md)",
          e);
    }
    WriteOptions options =
        id == null ? WriteOptions.none() : WriteOptions.none().withEnvelopeId(id);
    outbox.writeTo(address, definition, json(payload), options);
  }

  private static JsonValue json(String payload) {
    try (var reader = Json.createReader(new StringReader(payload))) {
      return reader.readValue();
    } catch (JsonParsingException | IllegalStateException e) {
      return Json.createValue(payload);
    }
  }
}
