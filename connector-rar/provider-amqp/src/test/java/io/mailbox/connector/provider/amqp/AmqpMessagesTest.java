package io.mailbox.connector.provider.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.impl.LongStringHelper;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mapping both ways, without a broker. */
class AmqpMessagesTest {
  private static final MailAddress INBOX = MailAddress.parse("amqp:orders@shop/placed");

  private static MailMessage ours() {
    return MailMessage.to(INBOX)
        .id("order-42")
        .from("amqp:web@shop/checkout")
        .header("tenant", "acme")
        .header(SystemHeaders.SEND_ID, "key-1")
        .header(SystemHeaders.SENT_AT, "2026-11-30T10:15:30.123Z")
        .meta("trace", "t-9")
        .body("{\"n\":1}")
        .build();
  }

  @Test
  void ourOwnMessageSurvivesTheRoundTrip() {
    MailMessage sent = ours();
    AMQP.BasicProperties properties = AmqpMessages.properties(sent);

    AmqpMessages.Received back = AmqpMessages.read(INBOX, properties, AmqpMessages.body(sent));

    assertThat(back.foreign()).isFalse();
    assertThat(back.droppedHeaders()).isZero();
    assertThat(back.copy()).isEqualTo(sent);
    assertThat(properties.getDeliveryMode()).isEqualTo(2);
    assertThat(properties.getTimestamp().toInstant().toString())
        .isEqualTo("2026-11-30T10:15:30.123Z");
  }

  @Test
  void redeliveriesCountedByTheBrokerAddToTheRound() {
    MailMessage sent = ours().toBuilder().header(SystemHeaders.ROUND, "2").build();
    Map<String, Object> headers = new LinkedHashMap<>(AmqpMessages.properties(sent).getHeaders());
    headers.put("x-delivery-count", 3L);
    AMQP.BasicProperties redelivered =
        AmqpMessages.properties(sent).builder().headers(headers).build();

    MailMessage back = AmqpMessages.read(INBOX, redelivered, AmqpMessages.body(sent)).copy();

    assertThat(back.header(SystemHeaders.ROUND)).contains("5");
  }

  @Test
  void aForeignProducerCannotSetOurBookkeepingAndUnsafeHeadersAreDropped() {
    Map<String, Object> headers = new LinkedHashMap<>();
    headers.put(SystemHeaders.SEND_ID, "forged");
    headers.put(SystemHeaders.DEAD_LETTER_REASON, "forged");
    headers.put("x-death", List.of());
    headers.put("bad\nname", "v");
    headers.put("table", Map.of("k", "v"));
    headers.put("bytes", new byte[] {1, 2});
    headers.put("text", LongStringHelper.asLongString("ok\u0007\u200b"));
    headers.put("when", new Date(0));
    AMQP.BasicProperties properties =
        new AMQP.BasicProperties.Builder().headers(headers).timestamp(new Date(1_000)).build();

    AmqpMessages.Received back =
        AmqpMessages.read(INBOX, properties, "\u00ff".getBytes(StandardCharsets.ISO_8859_1));

    assertThat(back.foreign()).isTrue();
    assertThat(back.droppedHeaders()).isEqualTo(6);
    MailMessage copy = back.copy();
    assertThat(copy.sendId()).isPresent().get().isNotEqualTo("forged");
    assertThat(copy.id()).as("no message-id: the key").isEqualTo(copy.sendId().orElseThrow());
    assertThat(copy.header(SystemHeaders.SENT_AT)).contains("1970-01-01T00:00:01Z");
    assertThat(copy.headers())
        .containsEntry("text", "ok")
        .containsEntry("when", "1970-01-01T00:00:00Z")
        .doesNotContainKeys(SystemHeaders.DEAD_LETTER_REASON, "x-death", "table", "bytes");
    assertThat(copy.body()).as("bytes that are not UTF-8 are replaced").isEqualTo("\ufffd");
  }

  @Test
  void headerValuesAreCutAtTheirBound() {
    assertThat(AmqpMessages.plain("x".repeat(5_000))).hasSize(AmqpMessages.MAX_HEADER_CHARS);
    assertThat(AmqpMessages.plain(12.5)).isEqualTo("12.5");
    assertThat(AmqpMessages.plain(List.of("a"))).isNull();
  }
}
