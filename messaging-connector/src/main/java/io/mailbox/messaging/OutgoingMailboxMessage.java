package io.mailbox.messaging;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * A message for an outgoing {@code mailbox} channel that also sets the mailbox id and headers:
 * {@code emitter.send(OutgoingMailboxMessage.of(json).withId("order-42").withHeader("type",
 * "placed").withOrderingKey("customer-7"))}. Through the outbox ({@code outbox.topic}) the row
 * keeps them and the relay publishes them with every send. Any other message is sent with a
 * generated id and no headers.
 *
 * <p>Created inside a JTA transaction, it belongs to that transaction: the channel writes it there
 * (an outbox row, or a post enlisted in it) only on a thread of that transaction, and the
 * transaction rolls back if it completes without the message written — including a message created
 * and never sent, so create it where you send it. A plain payload carries no transaction and is
 * written into whatever transaction the delivering thread has, which under concurrency can be
 * another sender's: inside a transaction, send this type.
 */
public final class OutgoingMailboxMessage<T> implements Message<T> {
  private final T payload;
  private final String id;
  private final Map<String, String> headers;
  private final Supplier<CompletionStage<Void>> ack;
  private final Function<Throwable, CompletionStage<Void>> nack;
  private final SenderTransaction origin;

  private OutgoingMailboxMessage(
      T payload,
      String id,
      Map<String, String> headers,
      Supplier<CompletionStage<Void>> ack,
      Function<Throwable, CompletionStage<Void>> nack,
      SenderTransaction origin) {
    this.payload = payload;
    this.id = id;
    this.headers = Map.copyOf(headers);
    this.ack = ack;
    this.nack = nack;
    this.origin = origin;
  }

  public static <T> OutgoingMailboxMessage<T> of(T payload) {
    return new OutgoingMailboxMessage<>(
        payload,
        null,
        Map.of(),
        () -> CompletableFuture.completedFuture(null),
        reason -> CompletableFuture.completedFuture(null),
        SenderTransaction.capture());
  }

  public OutgoingMailboxMessage<T> withId(String newId) {
    return new OutgoingMailboxMessage<>(payload, newId, headers, ack, nack, origin);
  }

  public OutgoingMailboxMessage<T> withHeader(String name, String value) {
    Map<String, String> more = new TreeMap<>(headers);
    more.put(name, value);
    return new OutgoingMailboxMessage<>(payload, id, more, ack, nack, origin);
  }

  /**
   * The ordering key: same key, same partition where the transport has them, and relay order in the
   * outbox (at most 128 UTF-8 bytes).
   */
  public OutgoingMailboxMessage<T> withOrderingKey(String key) {
    return withHeader(io.mailbox.connector.api.PublishOptions.ORDERING_KEY, key);
  }

  /** The de-duplication id: the transport's native de-duplication (at most 128 UTF-8 bytes). */
  public OutgoingMailboxMessage<T> withDeduplicationId(String deduplicationId) {
    return withHeader(io.mailbox.connector.api.PublishOptions.DEDUPLICATION_ID, deduplicationId);
  }

  @Override
  public OutgoingMailboxMessage<T> withAck(Supplier<CompletionStage<Void>> newAck) {
    return new OutgoingMailboxMessage<>(payload, id, headers, newAck, nack, origin);
  }

  @Override
  public OutgoingMailboxMessage<T> withNack(Function<Throwable, CompletionStage<Void>> newNack) {
    return new OutgoingMailboxMessage<>(payload, id, headers, ack, newNack, origin);
  }

  /** The transaction it was created in ({@link SenderTransaction#NONE} outside one). */
  SenderTransaction origin() {
    return origin;
  }

  @Override
  public T getPayload() {
    return payload;
  }

  public Optional<String> id() {
    return Optional.ofNullable(id);
  }

  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public Supplier<CompletionStage<Void>> getAck() {
    return ack;
  }

  @Override
  public Function<Throwable, CompletionStage<Void>> getNack() {
    return nack;
  }
}
