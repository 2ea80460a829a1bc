package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.LongString;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.ForeignHeaders;
import io.mailbox.connector.spi.Ids;
import io.mailbox.connector.spi.SentAt;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Messages both ways between the kernel and AMQP.
 *
 * <p>Out: the body as UTF-8; the sender's id as {@code message-id}; the send time as {@code
 * timestamp} (seconds, AMQP's precision; the exact instant stays in {@code mbx-sent-at}); every
 * header as a string header; the sender address as {@code mbx-from} and meta as {@code
 * mbx-meta-<name>}; {@code app-id} = {@value #APP_ID}, persistent delivery mode.
 *
 * <p>In: a message we published keeps all of that. A message from a foreign producer (no {@code
 * app-id} of ours) gets a fresh send id (its key), its {@code timestamp} as the send time, and only
 * headers that are safe to carry: names without control characters, not {@code mbx-} (those are
 * ours to set) and not {@code x-} (the broker's: {@code x-death}, {@code x-delivery-count}...);
 * values that are text, numbers, booleans or timestamps, made plain text without control characters
 * and cut at {@value #MAX_HEADER_CHARS} characters. Anything else is dropped and counted, never
 * echoed. The broker's {@code x-delivery-count} (redeliveries) is added to the round.
 */
final class AmqpMessages {
  static final String APP_ID = "mailbox";
  static final String DELIVERY_COUNT = "x-delivery-count";
  static final int MAX_HEADER_CHARS = ForeignHeaders.MAX_VALUE_CHARS;

  private AmqpMessages() {}

  /** A received message: the copy, and how many foreign headers were dropped. */
  record Received(MailMessage copy, int droppedHeaders, boolean foreign) {}

  static AMQP.BasicProperties properties(MailMessage copy) {
    Map<String, Object> headers = new LinkedHashMap<>(copy.headers());
    copy.from().ifPresent(from -> headers.put(ForeignHeaders.FROM, from.toString()));
    copy.meta().forEach((name, value) -> headers.put(ForeignHeaders.META_PREFIX + name, value));
    Date timestamp =
        copy.header(SystemHeaders.SENT_AT)
            .map(AmqpMessages::instant)
            .map(Date::from)
            .orElseGet(Date::new);
    return new AMQP.BasicProperties.Builder()
        .appId(APP_ID)
        .messageId(copy.id())
        .timestamp(timestamp)
        .contentType(looksLikeJson(copy.body()) ? "application/json" : "text/plain")
        .contentEncoding("utf-8")
        .deliveryMode(2) // persistent: a durable queue keeps only persistent messages on restart
        .headers(headers)
        .build();
  }

  static byte[] body(MailMessage copy) {
    return copy.body().getBytes(StandardCharsets.UTF_8);
  }

  /** Reads a delivery from the queue of {@code address}. */
  static Received read(MailAddress address, AMQP.BasicProperties properties, byte[] body) {
    boolean ours = APP_ID.equals(properties.getAppId());
    Map<String, Object> raw = properties.getHeaders() == null ? Map.of() : properties.getHeaders();
    MailMessage.Builder copy = MailMessage.to(address).body(text(body));
    int dropped = 0;
    int redeliveries = 0;
    for (Map.Entry<String, Object> header : raw.entrySet()) {
      String name = header.getKey();
      if (DELIVERY_COUNT.equals(name) && header.getValue() instanceof Number count) {
        redeliveries = (int) Math.min(Integer.MAX_VALUE, Math.max(0, count.longValue()));
        continue;
      }
      String value = plain(header.getValue());
      if (name.startsWith("x-") || !ForeignHeaders.carry(copy, name, value, ours)) {
        dropped++;
      }
    }
    String messageId = plain(properties.getMessageId());
    if (!ours) {
      String key = Ids.next();
      copy.header(SystemHeaders.SEND_ID, key);
      Instant sentAt =
          properties.getTimestamp() == null ? Instant.now() : properties.getTimestamp().toInstant();
      copy.header(SystemHeaders.SENT_AT, sentAt.toString());
      messageId = messageId == null || messageId.isBlank() ? key : messageId;
    }
    if (messageId != null && !messageId.isBlank()) {
      copy.id(messageId);
    }
    MailMessage built = copy.build();
    if (redeliveries > 0) {
      // Deliveries the broker counted (a reclaimed lease, a lost connection) add to the round.
      int round = SystemHeaders.intHeader(built, SystemHeaders.ROUND, 0) + redeliveries;
      built = built.toBuilder().header(SystemHeaders.ROUND, Integer.toString(round)).build();
    }
    return new Received(built, dropped, !ours);
  }

  /** A header value as plain text, or null when it is not a scalar we carry. */
  static String plain(Object value) {
    String text;
    if (value instanceof String s) {
      text = s;
    } else if (value instanceof LongString s) {
      text = text(s.getBytes());
    } else if (value instanceof Number || value instanceof Boolean) {
      text = value.toString();
    } else if (value instanceof Date date) {
      text = date.toInstant().toString();
    } else {
      return null;
    }
    return ForeignHeaders.plainText(text);
  }

  /** UTF-8 text; bytes that are not UTF-8 become U+FFFD instead of failing the delivery. */
  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static boolean looksLikeJson(String body) {
    String trimmed = body.strip();
    return trimmed.startsWith("{") || trimmed.startsWith("[");
  }

  private static Instant instant(String text) {
    try {
      return SentAt.parse(text);
    } catch (RuntimeException e) {
      return Instant.now();
    }
  }
}
