package io.mailbox.ejb.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.ejb.event.IntegrationEventRejectedException.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 20, item 10: numbers read exactly, and RFC 3339's lower-case 't' and 'z'. */
class IntegrationEventEnvelopeLimitsTest {
  private static String envelope(String version, String occurredAt, String aggregateVersion) {
    return "{\"id\":\"e-1\",\"type\":\"people.hired\",\"version\":"
        + version
        + ",\"occurredAt\":\""
        + occurredAt
        + "\",\"data\":null"
        + (aggregateVersion == null ? "" : ",\"aggregateVersion\":" + aggregateVersion)
        + "}";
  }

  @ParameterizedTest
  @ValueSource(strings = {"4294967297", "2147483648", "9223372036854775808", "1e10", "1e400"})
  void aVersionBeyondAnIntIsRefusedNotTruncatedIntoAnotherVersion(String version) {
    // 4294967297 = 2^32 + 1 was read as version 1.
    assertThatThrownBy(
            () -> IntegrationEventEnvelope.parse(envelope(version, "2026-01-01T00:00:00Z", null)))
        .isInstanceOfSatisfying(
            IntegrationEventRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED))
        .hasMessageStartingWith("MBX-3001 malformed")
        .hasMessageContaining("version");
  }

  @Test
  void theLargestIntVersionIsRead() {
    assertThat(
            IntegrationEventEnvelope.parse(envelope("2147483647", "2026-01-01T00:00:00Z", null))
                .version())
        .isEqualTo(Integer.MAX_VALUE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"18446744073709551617", "1.5", "1e30"})
  void anAggregateVersionBeyondALongOrWithAFractionIsRefused(String aggregateVersion) {
    assertThatThrownBy(
            () ->
                IntegrationEventEnvelope.parse(
                    envelope("1", "2026-01-01T00:00:00Z", aggregateVersion)))
        .isInstanceOf(IntegrationEventRejectedException.class)
        .hasMessageContaining("aggregateVersion");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-01-01t00:00:00z", "2026-01-01t00:00:00Z", "2026-01-01T10:00:00.5z"})
  void lowerCaseTAndZAreAcceptedAsRfc3339Allows(String occurredAt) {
    IntegrationEventEnvelope read = IntegrationEventEnvelope.parse(envelope("1", occurredAt, null));

    assertThat(read.occurredAt()).isEqualTo(occurredAt);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-01-01x00:00:00Z", "2026-01-01T00:00:00y", "2026-01-01 00:00:00Z"})
  void otherLettersInPlaceOfTOrZAreStillRefused(String occurredAt) {
    assertThatThrownBy(() -> IntegrationEventEnvelope.parse(envelope("1", occurredAt, null)))
        .isInstanceOf(IntegrationEventRejectedException.class)
        .hasMessageContaining("occurredAt");
  }
}
