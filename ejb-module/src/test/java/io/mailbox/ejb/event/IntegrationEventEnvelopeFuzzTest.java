package io.mailbox.ejb.event;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.event.IntegrationEventRejectedException.Reason;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing envelopes (issue 20): any delivered text is an envelope whose accessors all answer and
 * whose wire form reads back equal, or a refusal with MBX-3001 malformed; never another exception.
 * Most inputs are envelopes with one field replaced by something odd, so the checks past the first
 * one are reached; the rest are arbitrary text.
 */
class IntegrationEventEnvelopeFuzzTest {
  @Property(tries = 10_000)
  void anyTextIsAValidEnvelopeOrRefusedAsMalformed(@ForAll("envelopes") String text) {
    IntegrationEventEnvelope envelope;
    try {
      envelope = IntegrationEventEnvelope.parse(text);
    } catch (IntegrationEventRejectedException e) {
      assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
      assertThat(e.getMessage()).startsWith("MBX-3001 malformed: ");
      return;
    }
    assertThat(envelope.version()).isPositive();
    // Read exactly as sent: 2^32 + 1 was once read as version 1.
    jakarta.json.JsonObject raw =
        jakarta.json.Json.createReader(new java.io.StringReader(text)).readObject();
    assertThat(raw.getJsonNumber("version").bigDecimalValue())
        .isEqualByComparingTo(java.math.BigDecimal.valueOf(envelope.version()));
    if (raw.get("aggregateVersion") instanceof jakarta.json.JsonNumber aggregate) {
      assertThat(aggregate.bigDecimalValue())
          .isEqualByComparingTo(java.math.BigDecimal.valueOf(envelope.aggregateVersion().get()));
    }
    assertThat(envelope.id()).isNotBlank();
    assertThat(envelope.type()).isNotBlank();
    assertThat(envelope.occurredAt()).isNotBlank();
    envelope.correlationId();
    envelope.extraFields();
    envelope.causedBy();
    assertThat(envelope.toString()).isNotEmpty();
    assertThat(IntegrationEventEnvelope.parse(envelope.toJson())).isEqualTo(envelope);
  }

  @Provide
  Arbitrary<String> envelopes() {
    Arbitrary<String> number =
        Arbitraries.oneOf(
            Arbitraries.of(
                "1",
                "0",
                "-1",
                "2147483647",
                "2147483648",
                "4294967297",
                "1.0",
                "1.5",
                "1e0",
                "1E2",
                "1e400",
                "1e-400",
                "-0",
                "9223372036854775808",
                "\"1\"",
                "true",
                "null",
                "[]",
                "{}"),
            Arbitraries.longs().map(String::valueOf),
            Arbitraries.bigIntegers()
                .between(
                    java.math.BigInteger.TWO.pow(70).negate(), java.math.BigInteger.TWO.pow(70))
                .map(String::valueOf));
    Arbitrary<String> string =
        Arbitraries.oneOf(
            Arbitraries.strings().all().ofMaxLength(12).map(IntegrationEventEnvelopeFuzzTest::json),
            Arbitraries.of(
                "\"2026-01-01T00:00:00Z\"",
                "\"2026-01-01t00:00:00z\"",
                "\"2026-02-30T00:00:00Z\"",
                "\"2026-01-01T24:00:00Z\"",
                "\"2026-01-01T00:00:60Z\"",
                "\"2026-01-01T00:00:00.1234567891Z\"",
                "\"2026-01-01T00:00:00+25:00\"",
                "\"2026-01-01T00:00:00-00:00\"",
                "\"\"",
                "\" \"",
                "null",
                "1",
                "{}"));
    Arbitrary<String> value = Arbitraries.oneOf(number, string);
    Arbitrary<String> shaped =
        Combinators.combine(
                Arbitraries.of(
                    "id",
                    "type",
                    "version",
                    "occurredAt",
                    "data",
                    "aggregateVersion",
                    "correlationId",
                    "causationId",
                    "aggregateId",
                    "extra"),
                value,
                Arbitraries.of("", ",\"aggregateVersion\":3", ",\"x\":[1,{\"y\":null}]"))
            .as(
                (field, replacement, more) ->
                    envelopeWith(field, replacement).replaceFirst("}$", more + "}"));
    Arbitrary<String> broken =
        Arbitraries.oneOf(
            Arbitraries.strings().all().ofMaxLength(30),
            Arbitraries.strings().withChars("{}[]\",:0123456789eE.-tfnul ").ofMaxLength(30),
            shaped.map(s -> s.substring(0, s.length() / 2)));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, shaped), net.jqwik.api.Tuple.of(1, broken));
  }

  private static String envelopeWith(String field, String replacement) {
    StringBuilder json = new StringBuilder("{");
    String[][] fields = {
      {"id", "\"e-1\""},
      {"type", "\"people.hired\""},
      {"version", "1"},
      {"occurredAt", "\"2026-01-01T00:00:00Z\""},
      {"data", "{\"name\":\"Ada\"}"}
    };
    for (String[] f : fields) {
      json.append('"').append(f[0]).append("\":");
      json.append(f[0].equals(field) ? replacement : f[1]).append(',');
    }
    json.append("\"").append(field).append("\":").append(replacement);
    return json.append('}').toString();
  }

  private static String json(String text) {
    return jakarta.json.Json.createValue(text).toString();
  }
}
