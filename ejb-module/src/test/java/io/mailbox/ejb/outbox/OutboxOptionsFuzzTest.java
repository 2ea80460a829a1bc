package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import jakarta.json.JsonValue;
import java.time.Clock;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Fuzzing outbox publish options (issue 18): a write either refuses them with a documented code
 * (MBX-1004, MBX-3007) naming no generated value, before any row exists, or keeps a row whose
 * published message passes the send boundary's checks and carries the options exactly.
 */
class OutboxOptionsFuzzTest {
  private static final IntegrationEventDefinition<JsonValue> PLACED =
      IntegrationEventDefinition.define("orders.placed", 1, "orders.placed.v1", d -> d);
  private final OutboxRows rows =
      new OutboxRows(Clock.systemUTC(), topic -> "mem:events@shop/" + topic, 262_144);

  @Property(tries = 10_000)
  void aWriteIsRefusedWithACodeOrPublishedAsWritten(
      @ForAll("keys") String orderingKey,
      @ForAll("keys") String deduplicationId,
      @ForAll("headers") Map<String, String> headers) {
    WriteOptions options = WriteOptions.none().withHeaders(headers);
    if (!orderingKey.isEmpty()) {
      options = options.withOrderingKey(orderingKey);
    }
    if (!deduplicationId.isEmpty()) {
      options = options.withDeduplicationId(deduplicationId);
    }
    OutboxRecord record;
    try {
      record = rows.create(PLACED, JsonValue.NULL, options);
    } catch (MailboxException refused) {
      Statistics.collect("refused");
      assertThat(refused.getMessage()).matches("MBX-(1004|3007) Outbox write refused: (?s).*");
      for (String value : values(orderingKey, deduplicationId, headers)) {
        assertThat(refused.getMessage()).doesNotContain(value);
      }
      return;
    }
    Statistics.collect("written");
    MailMessage message = record.view().toMessage();
    PublishOptions.check(message); // the relay's post will not be refused
    if (!orderingKey.isEmpty()) {
      assertThat(message.header(PublishOptions.ORDERING_KEY)).contains(orderingKey);
    }
    assertThat(message.header(PublishOptions.DEDUPLICATION_ID))
        .contains(deduplicationId.isEmpty() ? record.id() : deduplicationId);
    headers.forEach((name, value) -> assertThat(message.header(name)).contains(value));
  }

  /** The generated values long enough that finding one in a message means it was echoed. */
  private static java.util.List<String> values(
      String orderingKey, String deduplicationId, Map<String, String> headers) {
    java.util.List<String> all = new java.util.ArrayList<>();
    all.add(orderingKey);
    all.add(deduplicationId);
    all.addAll(headers.values());
    return all.stream().filter(v -> v.length() >= 12).toList();
  }

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.oneOf(
        Arbitraries.just(""),
        Arbitraries.strings().alpha().numeric().withChars("-_.:").ofMinLength(1).ofMaxLength(140),
        Arbitraries.strings().withChars("é注\n\u0000 ab").ofMinLength(1).ofMaxLength(80),
        Arbitraries.strings().all().ofMinLength(1).ofMaxLength(40));
  }

  @Provide
  Arbitrary<Map<String, String>> headers() {
    Arbitrary<String> names =
        Arbitraries.oneOf(
            Arbitraries.strings().alpha().withChars("-").ofMinLength(1).ofMaxLength(20),
            Arbitraries.of(
                "traceparent",
                "X-Death",
                "nats-msg-id",
                "ordering-key",
                "Event-Topic",
                "content-type",
                "x-first-death-queue",
                "goog-x"),
            Arbitraries.strings().all().ofMinLength(1).ofMaxLength(8),
            Arbitraries.strings().withChars("nm").ofLength(129));
    Arbitrary<String> values =
        Arbitraries.oneOf(
            Arbitraries.strings().alpha().numeric().ofMaxLength(30),
            Arbitraries.strings().withChars("é注\r x").ofMaxLength(400),
            Arbitraries.strings().withChars("xy").ofLength(1_025));
    return Arbitraries.oneOf(
        Arbitraries.maps(names, values).ofMaxSize(4),
        Arbitraries.maps(names, values).ofMinSize(30).ofMaxSize(34));
  }
}
