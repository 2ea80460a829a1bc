package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.ForeignHeaders;
import io.mailbox.connector.spi.Ids;
import io.nats.client.Message;
import io.nats.client.api.MessageInfo;
import io.nats.client.impl.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Messages both ways between the kernel and NATS.
 *
 * <p>Out: the data is the body as UTF-8; every header becomes a NATS header, with the sender's id
 * as {@value #MESSAGE_ID}, the sender address as {@code mbx-from}, meta as {@code mbx-meta-<name>}
 * and {@value #PRODUCER} = {@code mailbox} to mark messages we wrote. The de-duplication id is the
 * JetStream message id ({@code Nats-Msg-Id}): the {@value #DEDUPLICATION_ID} header when present,
 * else the message id when {@code natsDeduplicateByMessageId} is on.
 *
 * <p>In: a message of ours keeps all of that. A message from a foreign publisher gets a send id
 * made from where the stream stored it (the same at every delivery), the stream's timestamp as its
 * send time, its {@code Nats-Msg-Id} as its message id (else {@code <stream>:<sequence>}) and only
 * headers that are safe ({@link ForeignHeaders}), not {@code mbx-} and not the server's {@code
 * Nats-}; the rest is dropped and counted, never echoed. On both, the delivery count the server
 * keeps becomes the round ({@code mbx-round} = deliveries before this one).
 */
final class NatsMessages {
  static final String MESSAGE_ID = "mbx-message-id";
  static final String PRODUCER = "mbx-producer";
  static final String DEDUPLICATION_ID = "deduplication-id";
  private static final String OURS = "mailbox";
  private static final String SERVER_PREFIX = "nats-";

  private NatsMessages() {}

  /** A received message: the copy, and how many foreign headers were dropped. */
  record Received(MailMessage copy, int droppedHeaders) {}

  static Headers headers(MailMessage copy) {
    Headers headers = new Headers();
    copy.headers().forEach(headers::put);
    headers.put(MESSAGE_ID, copy.id());
    copy.from().ifPresent(from -> headers.put(ForeignHeaders.FROM, from.toString()));
    copy.meta().forEach((name, value) -> headers.put(ForeignHeaders.META_PREFIX + name, value));
    headers.put(PRODUCER, OURS);
    return headers;
  }

  static byte[] body(MailMessage copy) {
    return copy.body().getBytes(StandardCharsets.UTF_8);
  }

  /** The JetStream message id of {@code copy}, or null for none. */
  static String deduplicationId(MailMessage copy, boolean byMessageId) {
    return copy.header(DEDUPLICATION_ID).orElse(byMessageId ? copy.id() : null);
  }

  /**
   * What a read needs of a stored message, delivered ({@code message}) or read by sequence ({@code
   * info}). Where it is stored and when are only needed for a foreign message: computed on demand
   * (a delivered message's are parsed from its reply subject, a string and a date per message).
   */
  private record Stored(
      Headers headers, byte[] data, long deliveredBefore, Message message, MessageInfo info) {

    static Stored of(Message message) {
      return new Stored(
          message.hasHeaders() ? message.getHeaders() : new Headers(),
          message.getData(),
          message.isJetStream() ? message.metaData().deliveredCount() - 1 : 0,
          message,
          null);
    }

    /** A message read by sequence: never delivered by that read, so no round. */
    static Stored of(MessageInfo stored) {
      return new Stored(
          stored.getHeaders() == null ? new Headers() : stored.getHeaders(),
          stored.getData(),
          0,
          null,
          stored);
    }

    String position() {
      return message != null
          ? NatsMessages.position(message)
          : info.getStream() + ":" + info.getSeq();
    }

    Instant storedAt() {
      if (message != null) {
        return NatsMessages.storedAt(message);
      }
      return info.getTime() == null ? Instant.now() : info.getTime().toInstant();
    }
  }

  static Received read(MailAddress address, Message message) {
    return read(address, Stored.of(message));
  }

  /** A message read by its stream sequence (peek, parked records). */
  static Received read(MailAddress address, MessageInfo stored) {
    return read(address, Stored.of(stored));
  }

  private static Received read(MailAddress address, Stored message) {
    Headers headers = message.headers();
    boolean ours = isOurs(headers);
    MailMessage.Builder copy = MailMessage.to(address).body(text(message.data()));
    int dropped = 0;
    String messageId = null;
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      String name = header.getKey();
      List<String> values = header.getValue();
      String raw = values == null || values.isEmpty() ? null : values.get(values.size() - 1);
      String value = raw == null ? null : ForeignHeaders.plainText(raw);
      if (name.regionMatches(true, 0, SERVER_PREFIX, 0, SERVER_PREFIX.length())) {
        if (!ours && name.equalsIgnoreCase("Nats-Msg-Id") && value != null && !value.isBlank()) {
          messageId = value;
        }
        continue; // the server's own
      }
      if (ours && name.equals(PRODUCER)) {
        continue;
      }
      if (ours && name.equals(MESSAGE_ID)) {
        messageId = value;
      } else if (!ForeignHeaders.carry(copy, name, value, ours)) {
        dropped++;
      }
    }
    if (!ours) {
      String position = message.position();
      String key = position == null ? Ids.next() : Ids.stable(position);
      copy.header(SystemHeaders.SEND_ID, key);
      copy.header(SystemHeaders.SENT_AT, message.storedAt().toString());
      if (messageId == null) {
        messageId = position == null ? key : position;
      }
    }
    if (messageId != null && !messageId.isBlank()) {
      copy.id(messageId);
    }
    if (message.deliveredBefore() > 0) {
      copy.header(SystemHeaders.ROUND, Long.toString(message.deliveredBefore()));
    }
    return new Received(copy.build(), dropped);
  }

  /** {@link #read}, or the body alone under a fresh send id when the headers cannot be read. */
  static Received readSafely(MailAddress address, Message message) {
    return readSafely(address, Stored.of(message));
  }

  /** {@link #readSafely(MailAddress, Message)} of a message read by its stream sequence. */
  static Received readSafely(MailAddress address, MessageInfo stored) {
    return readSafely(address, Stored.of(stored));
  }

  private static Received readSafely(MailAddress address, Stored message) {
    try {
      return read(address, message);
    } catch (RuntimeException unreadable) {
      String position = message.position();
      String key = position == null ? Ids.next() : Ids.stable(position);
      MailMessage copy =
          MailMessage.to(address)
              .id(key)
              .body(text(message.data()))
              .header(SystemHeaders.SEND_ID, key)
              .header(SystemHeaders.SENT_AT, message.storedAt().toString())
              .build();
      return new Received(copy, message.headers().size());
    }
  }

  /**
   * Where a JetStream message is stored, {@code <stream>:<sequence>}: the same at every delivery,
   * so a foreign message's key and (without a {@code Nats-Msg-Id}) its id let a consumer inbox
   * recognize a redelivery. Null for a plain NATS message.
   */
  private static String position(Message message) {
    if (!message.isJetStream()) {
      return null;
    }
    return message.metaData().getStream() + ":" + message.metaData().streamSequence();
  }

  private static Instant storedAt(Message message) {
    return message.isJetStream() ? message.metaData().timestamp().toInstant() : Instant.now();
  }

  private static boolean isOurs(Headers headers) {
    String marker = headers.getLast(PRODUCER);
    String sendId = headers.getLast(SystemHeaders.SEND_ID);
    return OURS.equals(marker) && sendId != null && !sendId.isBlank();
  }

  /** UTF-8 text; bytes that are not UTF-8 become U+FFFD instead of failing the delivery. */
  private static String text(byte[] bytes) {
    return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
  }
}
