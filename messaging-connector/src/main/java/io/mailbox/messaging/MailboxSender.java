package io.mailbox.messaging;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.tracing.MessageTracing;
import io.mailbox.tracing.MessageTracing.TracedSpan;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * An outgoing channel: posts each message to the channel's address on the calling thread, then acks
 * it; a refused post nacks it (and dooms the caller's transaction, if any) while the channel stays
 * open for the next message. On the caller's thread inside a JTA transaction, the post is enlisted
 * like any connection-factory post: delivered only if the transaction commits.
 */
final class MailboxSender {
  private static final Logger LOG = Logger.getLogger(MailboxSender.class.getName());

  /** JSON-B only for payloads that are not text, created on first use. */
  private static final class Json {
    static final Jsonb BINDING = JsonbBuilder.create();
  }

  private final ChannelSettings settings;
  private final Supplier<MailboxConnectionFactory> connections;
  private final OutboxBridge outbox;

  MailboxSender(ChannelSettings settings, Supplier<MailboxConnectionFactory> connections) {
    this.settings = settings;
    this.connections = connections;
    this.outbox = settings.outboxTopic().map(OutboxBridge::new).orElse(null);
  }

  CompletionStage<Void> send(Message<?> message) {
    SenderTransaction origin =
        message instanceof OutgoingMailboxMessage<?> outgoing ? outgoing.origin() : null;
    MailMessage letter;
    try {
      if (origin != null && origin.isTransactional() && !origin.isCurrent()) {
        // Handed over on another sender's thread (or after its own transaction ended): written
        // here it would commit or roll back with somebody else's work. Its own transaction rolls
        // back instead (SenderTransaction).
        throw new MailboxException(
            ErrorCode.SENT_OUTSIDE_ITS_TRANSACTION,
            "Channel "
                + settings.channel()
                + ": a message created in a transaction reached the channel outside it; not"
                + " written, its sender's transaction is rolled back");
      }
      letter = toLetter(message);
      if (outbox != null && OutboxBridge.inTransaction()) {
        // In the caller's transaction: an outbox row, published by the relay only after commit.
        outbox.write(
            settings.address().toString(), letter.body(), explicitId(message), letter.headers());
      } else if (outbox != null && CallerTransaction.exists()) {
        // A transaction marked for rollback (or completing): posting on our own would deliver a
        // message whose sender's work is undone.
        throw new MailboxException(
            ErrorCode.SENT_OUTSIDE_ITS_TRANSACTION,
            "Channel "
                + settings.channel()
                + ": the sender's transaction is no longer active; not written");
      } else {
        post(letter);
      }
      if (origin != null) {
        origin.markWritten();
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
      // The sender's transaction, if any, must not commit without this message (an order without
      // its shipping request); the channel itself goes on. Failing the returned stage instead
      // cancelled the channel's stream for good: after a 20 s database outage every later send on
      // it failed with SRMSG00028 "subscription cancelled" (974 orders refused in the outage test).
      if (origin == null || origin.isCurrent()) {
        CallerTransaction.setRollbackOnly();
      }
      // A nack that fails must not fail the stage either (that too would end the channel).
      return message.nack(e).exceptionally(nackFailed -> null);
    }
    // Acknowledged only once the provider (or, in a transaction, the enlisted connection) accepted
    // it.
    return message.ack();
  }

  /**
   * Posts on the channel's connection; inside a trace, in a publish span whose context the message
   * carries (the outbox path needs none here: the outbox stores the writer's context itself).
   */
  private void post(MailMessage letter) {
    TracedSpan span =
        MessageTracing.lookup().startPublish(settings.address().toString(), letter.id(), null);
    MailMessage traced = span.carriedBy(letter);
    try (MailboxConnection connection = connections.get().getConnection()) {
      connection.post(traced);
    } catch (RuntimeException e) {
      span.end("failed", e);
      throw e;
    }
    span.end("published", null);
  }

  private static String explicitId(Message<?> message) {
    return message instanceof OutgoingMailboxMessage<?> outgoing
        ? outgoing.id().orElse(null)
        : null;
  }

  private MailMessage toLetter(Message<?> message) {
    Object payload = message.getPayload();
    String body = payload instanceof String text ? text : Json.BINDING.toJson(payload);
    MailMessage.Builder letter = MailMessage.to(settings.address()).body(body);
    if (message instanceof OutgoingMailboxMessage<?> outgoing) {
      outgoing.id().ifPresent(letter::id);
      outgoing.headers().forEach(letter::header);
    }
    return letter.build();
  }
}
