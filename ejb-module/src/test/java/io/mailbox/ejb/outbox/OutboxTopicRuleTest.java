package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import jakarta.json.JsonValue;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The relay applies the same topic-name rule as definitions (io.mailbox.ejb.event.TopicName): a row
 * whose topic was written around the definition (by hand, by an older build) is failed as invalid,
 * never published.
 */
class OutboxTopicRuleTest {
  private static final IntegrationEventDefinition<JsonValue> PLACED =
      IntegrationEventDefinition.define("orders.placed", 1, "orders.placed.v1", d -> d);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "orders\u2028placed.v1",
        "orders\u2029placed.v1",
        "orders\u00a0placed.v1",
        "orders\u3000placed.v1",
        "orders\ud800placed.v1",
        "orders placed.v1"
      })
  void aRowWithATopicTheDefinitionWouldRefuseIsFailedAsInvalidAndNeverPublished(String topic) {
    InMemoryOutboxStore store = new InMemoryOutboxStore();
    List<String> published = new ArrayList<>();
    String envelope = IntegrationEventEnvelope.of(PLACED, JsonValue.NULL).id("r").build().toJson();
    store.insert(
        new OutboxRow(
            "r",
            topic,
            "mem:events@shop/orders",
            envelope,
            null,
            null,
            null,
            null,
            "0000000000000001",
            0,
            OutboxStatus.PENDING,
            0,
            0,
            0,
            0,
            null,
            null));

    new OutboxRelay(
            store,
            row -> published.add(row.id()),
            RelaySettings.defaults(),
            Clock.systemUTC(),
            "relay-1",
            RelayListener.NONE)
        .sweep();

    assertThat(published).isEmpty();
    assertThat(store.get("r").status()).isEqualTo(OutboxStatus.FAILED);
    assertThat(store.get("r").lastError()).startsWith("invalid-row").contains("U+");
  }
}
