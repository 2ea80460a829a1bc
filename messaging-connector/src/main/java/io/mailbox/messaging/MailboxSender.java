package io.mailbox.messaging;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * An outgoing channel: posts each message to the channel's address on the calling thread, then acks
 * it; a refused post nacks it. On the caller's thread inside a JTA transaction, the post is
 * enlisted like any connection-factory post: delivered only if the transaction commits.
 */
final class MailboxSender {
  private static final Logger LOG = Logger.getLogger(MailboxSender.class.getName());
  private static final Jsonb JSON = JsonbBuilder.create();

  private final ChannelSettings settings;
  private final Supplier<MailboxConnectionFactory> connections;
  private final OutboxBridge outbox;

  MailboxSender(ChannelSettings settings, Supplier<MailboxConnectionFactory> connections) {
    this.settings = settings;
    this.connections = connections;
    this.outbox = settings.outboxTopic().map(OutboxBridge::new).orElse(null);
  }

  CompletionStage<Void> send(Message<?> message) {
    MailMessage letter;
    try {
      letter = toLetter(message);
      if (outbox != null && OutboxBridge.inTransaction()) {
        // In the caller's transaction: an outbox row, published by the relay only after commit.
        outbox.write(settings.address().toString(), letter.body(), explicitId(message));
      } else {
        try (MailboxConnection connection = connections.get().getConnection()) {
          connection.post(letter);
        }
      }
    } catch (RuntimeException e) {
      LOG.warning(
          () ->
              "Channel "
                  + settings.channel()
                  + ": send to "
                  + settings.address()
                  + " refused: "
                  + e.getMessage());
      return message.nack(e).thenCompose(ignored -> CompletableFuture.failedFuture(e));
    }
    // Acknowledged only once the provider (or, in a transaction, the enlisted connection) accepted
    // it.
    return message.ack();
  }

  private static String explicitId(Message<?> message) {
    return message instanceof OutgoingMailboxMessage<?> outgoing
        ? outgoing.id().orElse(null)
        : null;
  }

  private MailMessage toLetter(Message<?> message) {
    Object payload = message.getPayload();
    String body = payload instanceof String text ? text : JSON.toJson(payload);
    MailMessage.Builder letter = MailMessage.to(settings.address()).body(body);
    if (message instanceof OutgoingMailboxMessage<?> outgoing) {
      outgoing.id().ifPresent(letter::id);
      outgoing.headers().forEach(letter::header);
    }
    return letter.build();
  }
}
