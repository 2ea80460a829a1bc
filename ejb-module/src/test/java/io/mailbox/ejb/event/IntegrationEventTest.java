package io.mailbox.ejb.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.ejb.event.IntegrationEventRejectedException.Reason;
import jakarta.json.Json;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IntegrationEventTest {
  private static final IntegrationEventDefinition<String> HIRED =
      IntegrationEventDefinition.define(
          "people.hired", 1, "people.hired.v1", data -> ((JsonString) data).getString());

  private static Reason reasonOf(Runnable action) {
    try {
      action.run();
    } catch (IntegrationEventRejectedException e) {
      return e.reason();
    }
    throw new AssertionError("expected a rejection");
  }

  @Test
  void aTopicThatDoesNotEndInItsVersionIsRefusedAtDefinitionTime() {
    assertThatThrownBy(
            () -> IntegrationEventDefinition.define("people.hired", 2, "people.hired.v1", d -> d))
        .isInstanceOf(IntegrationEventRejectedException.class)
        .hasMessageContaining("must end with '.v2'");
    assertThatThrownBy(
            () -> IntegrationEventDefinition.define("people.hired", 1, "people.hired", d -> d))
        .hasMessageContaining(".v1");
    assertThatThrownBy(
            () -> IntegrationEventDefinition.define("People Hired", 1, "people.hired.v1", d -> d))
        .hasMessageContaining("type");
    assertThatThrownBy(
            () -> IntegrationEventDefinition.define("people.hired", 0, "people.hired.v0", d -> d))
        .hasMessageContaining("version");
    assertThatThrownBy(
            () -> IntegrationEventDefinition.define("people.hired", 1, "people.hired.v1", null))
        .hasMessageContaining("parser");
  }

  @Test
  void anEnvelopeRoundTripsAndKeepsUnknownExtraFields() {
    String json =
        IntegrationEventEnvelope.of(HIRED, Json.createValue("p-1"))
            .aggregate("p-1", 3)
            .build()
            .toJson();
    String withExtra = json.substring(0, json.length() - 1) + ",\"addedLater\":true}";

    IntegrationEventEnvelope read = IntegrationEventEnvelope.parse(withExtra);

    assertThat(read.type()).isEqualTo("people.hired");
    assertThat(read.aggregateVersion()).contains(3L);
    assertThat(read.extraFields()).containsKey("addedLater");
    assertThat(HIRED.accept(read)).isEqualTo("p-1");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-01-01",
        "2026-01-01T00:00:00",
        "2026-01-01T00:00Z",
        "Thu, 01 Jan 2026 00:00:00 GMT",
        "2026-13-01T00:00:00Z"
      })
  void anOccurredAtWithoutAZoneOrNotAnInstantIsMalformed(String occurredAt) {
    String json =
        "{\"id\":\"1\",\"type\":\"people.hired\",\"version\":1,\"occurredAt\":\""
            + occurredAt
            + "\",\"data\":null}";

    assertThat(reasonOf(() -> IntegrationEventEnvelope.parse(json))).isEqualTo(Reason.MALFORMED);
  }

  @Test
  void offsetsAndFractionsAreAccepted() {
    for (String when :
        new String[] {
          "2026-01-01T00:00:00Z", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00+05:30"
        }) {
      String json =
          "{\"id\":\"1\",\"type\":\"t\",\"version\":1,\"occurredAt\":\""
              + when
              + "\",\"data\":null}";
      assertThat(IntegrationEventEnvelope.parse(json).occurredAt()).isEqualTo(when);
    }
  }

  @Test
  void missingDataOrMistypedCausalFieldsAreMalformed() {
    String noData =
        "{\"id\":\"1\",\"type\":\"t\",\"version\":1,\"occurredAt\":\"2026-01-01T00:00:00Z\"}";
    String numericCorrelation =
        "{\"id\":\"1\",\"type\":\"t\",\"version\":1,\"occurredAt\":\"2026-01-01T00:00:00Z\",\"data\":1,\"correlationId\":5}";

    assertThat(reasonOf(() -> IntegrationEventEnvelope.parse(noData))).isEqualTo(Reason.MALFORMED);
    assertThat(reasonOf(() -> IntegrationEventEnvelope.parse(numericCorrelation)))
        .isEqualTo(Reason.MALFORMED);
    assertThat(reasonOf(() -> IntegrationEventEnvelope.parse("not json")))
        .isEqualTo(Reason.MALFORMED);
    assertThatThrownBy(() -> IntegrationEventEnvelope.of(HIRED, null))
        .hasMessageContaining("JsonValue.NULL");
  }

  @Test
  void theConsumerRefusesAnotherTypeOrVersionAndAParserFailureWithTheirReasons() {
    IntegrationEventDefinition<JsonValue> fired =
        IntegrationEventDefinition.define("people.fired", 1, "people.fired.v1", d -> d);
    IntegrationEventDefinition<JsonValue> hiredV2 =
        IntegrationEventDefinition.define("people.hired", 2, "people.hired.v2", d -> d);

    assertThat(
            reasonOf(
                () -> HIRED.accept(IntegrationEventEnvelope.of(fired, JsonValue.NULL).build())))
        .isEqualTo(Reason.TYPE);
    assertThat(
            reasonOf(
                () -> HIRED.accept(IntegrationEventEnvelope.of(hiredV2, JsonValue.NULL).build())))
        .isEqualTo(Reason.VERSION);
    assertThat(
            reasonOf(
                () ->
                    HIRED.accept(IntegrationEventEnvelope.of(HIRED, Json.createValue(42)).build())))
        .isEqualTo(Reason.PARSE);
  }

  @Test
  void causedByCarriesTheChainRootAndTheDirectCause() {
    IntegrationEventEnvelope root =
        IntegrationEventEnvelope.of(HIRED, Json.createValue("a")).id("root").build();
    IntegrationEventEnvelope child =
        IntegrationEventEnvelope.of(HIRED, Json.createValue("b"))
            .id("child")
            .causedBy(root)
            .build();
    IntegrationEventEnvelope grandchild =
        IntegrationEventEnvelope.of(HIRED, Json.createValue("c")).causedBy(child).build();

    assertThat(child.correlationId()).contains("root");
    assertThat(child.causationId()).contains("root");
    assertThat(grandchild.correlationId()).contains("root");
    assertThat(grandchild.causationId()).contains("child");
  }
}
