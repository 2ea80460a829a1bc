package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import jakarta.ejb.ApplicationException;
import jakarta.json.JsonValue;
import java.time.Clock;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 20, item 10: an ordering key, tenant, envelope id or address longer than its column is
 * refused when the row is made (MBX-3007), before anything is written; a 300-character key used to
 * fail at commit and roll the business transaction back with the database's error. An ordering key
 * is also a publish option (issue 18): over 128 UTF-8 bytes it is refused with MBX-1004.
 */
class OutboxRowsLimitsTest {
  private static final IntegrationEventDefinition<JsonValue> PLACED =
      IntegrationEventDefinition.define("orders.placed", 1, "orders.placed.v1", d -> d);

  private final OutboxRows rows =
      new OutboxRows(Clock.systemUTC(), topic -> "mem:events@shop/" + topic, 262_144);

  private static UnaryOperator<WriteOptions> option(String field, String value) {
    return switch (field) {
      case "orderingKey" -> o -> o.withOrderingKey(value);
      case "tenantId" -> o -> o.withTenant(value);
      case "envelopeId" -> o -> o.withEnvelopeId(value);
      default -> throw new IllegalArgumentException(field);
    };
  }

  @ParameterizedTest
  @CsvSource({
    "orderingKey, 256, ordering key",
    "tenantId, 101, tenant id",
    "envelopeId, 129, envelope id"
  })
  void aValueLongerThanItsColumnIsRefusedBeforeTheRowExists(
      String field, int length, String named) {
    String value = "k".repeat(length);
    WriteOptions options = option(field, value).apply(WriteOptions.none());

    assertThatThrownBy(() -> rows.create(PLACED, JsonValue.NULL, options))
        .isInstanceOfSatisfying(
            MailboxException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.OUTBOX_FIELD_TOO_LONG))
        .hasMessageStartingWith("MBX-3007")
        .hasMessageContaining(named)
        .hasMessageContaining(Integer.toString(length))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(value));
  }

  @Test
  void anOrderingKeyThatFitsItsColumnButNotThePublishRuleIsRefusedWithoutItsValue() {
    String key = "key-" + "é".repeat(70); // 144 UTF-8 bytes, 74 characters

    assertThatThrownBy(
            () -> rows.create(PLACED, JsonValue.NULL, WriteOptions.none().withOrderingKey(key)))
        .isInstanceOf(OutboxOptionsRefusedException.class)
        .hasMessageStartingWith("MBX-1004")
        .hasMessageContaining("ordering-key")
        .hasMessageContaining("128 UTF-8 bytes")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("é"));
  }

  @Test
  void anAddressLongerThanItsColumnIsRefused() {
    String address = "mem:events@shop/" + "p".repeat(1000);

    assertThatThrownBy(() -> rows.create(PLACED, JsonValue.NULL, WriteOptions.none(), address))
        .hasMessageStartingWith("MBX-3007")
        .hasMessageContaining("address");
  }

  @Test
  void valuesThatFillTheirColumnsExactlyAreWritten() {
    OutboxRecord record =
        rows.create(
            PLACED,
            JsonValue.NULL,
            WriteOptions.none()
                .withOrderingKey("k".repeat(128))
                .withTenant("t".repeat(100))
                .withEnvelopeId("e".repeat(128)));

    assertThat(record.view().orderingKey()).as("the publish rule's bound").hasSize(128);
    assertThat(record.view().tenantId()).hasSize(100);
    assertThat(record.id()).hasSize(128);
  }

  @Test
  void theRefusalRollsTheCallersTransactionBackLikeAnOversizedEnvelope() {
    ApplicationException marker =
        OutboxWriteRefusedException.class.getAnnotation(ApplicationException.class);

    assertThat(marker).isNotNull();
    assertThat(marker.rollback()).isTrue();
  }
}
