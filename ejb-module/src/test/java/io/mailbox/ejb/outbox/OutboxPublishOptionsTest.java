package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 18: an outbox row keeps its publish options (ordering key, de-duplication id, the caller's
 * headers) and the relay publishes them with every send; options the message could never carry are
 * refused at write, before the row exists, never repeating the refused value.
 */
class OutboxPublishOptionsTest {
  private static final IntegrationEventDefinition<JsonValue> PLACED =
      IntegrationEventDefinition.define("orders.placed", 1, "orders.placed.v1", d -> d);
  private static final String SECRET = "private-value-7f3a";

  private final MutableClock clock = new MutableClock();
  private final OutboxRows rows =
      new OutboxRows(clock, topic -> "mem:events@shop/" + topic, 262_144);
  private final InMemoryOutboxStore store = new InMemoryOutboxStore();
  private final List<MailMessage> published = new ArrayList<>();
  private final List<String> failing = new ArrayList<>();
  private final OutboxRelay relay =
      new OutboxRelay(
          store,
          row -> {
            MailMessage message = row.toMessage(); // what MailboxOutboxPublisher posts
            published.add(message);
            if (failing.remove(row.id())) {
              throw new IllegalStateException("the broker said no");
            }
          },
          RelaySettings.defaults(),
          clock,
          "relay-1");

  @Test
  void theRelayPublishesARowsOptionsAndHeadersWithItsMessage() {
    OutboxRecord record =
        rows.create(
            PLACED,
            JsonValue.NULL,
            WriteOptions.none()
                .withOrderingKey("customer-42")
                .withDeduplicationId("order-42-v3")
                .withHeader("tenant", "eu")
                .withHeader("Content-Language", "de"));
    store.insert(record.view());

    relay.sweep();

    assertThat(published).hasSize(1);
    MailMessage message = published.get(0);
    assertThat(message.id()).isEqualTo(record.id());
    assertThat(message.header(PublishOptions.ORDERING_KEY)).contains("customer-42");
    assertThat(message.header(PublishOptions.DEDUPLICATION_ID)).contains("order-42-v3");
    assertThat(message.header("tenant")).contains("eu");
    assertThat(message.header("Content-Language")).contains("de");
    assertThat(message.header("event-topic")).contains("orders.placed.v1");
  }

  @Test
  void everySendOfARowCarriesTheSameDeduplicationIdTheEnvelopeIdByDefault() {
    OutboxRecord record = rows.create(PLACED, JsonValue.NULL, WriteOptions.none());
    store.insert(record.view());
    failing.add(record.id());

    relay.sweep(); // fails: the row backs off
    clock.advance(java.time.Duration.ofMinutes(1));
    relay.sweep();

    assertThat(published).hasSize(2);
    assertThat(published)
        .extracting(m -> m.header(PublishOptions.DEDUPLICATION_ID).orElseThrow())
        .containsOnly(record.id());
  }

  @Test
  void optionsTheMessageCouldNeverCarryAreRefusedAtWriteWithoutTheirValue() {
    Map<String, String> tooMany = new HashMap<>();
    for (int i = 0; i <= PublishOptions.MAX_HEADERS; i++) {
      tooMany.put("h-" + i, SECRET);
    }
    List<WriteOptions> refused =
        List.of(
            WriteOptions.none().withDeduplicationId(SECRET + "é".repeat(60)),
            WriteOptions.none().withHeader("TraceParent", SECRET),
            WriteOptions.none().withHeader("x-death", SECRET),
            WriteOptions.none().withHeader("note", SECRET + "\n"),
            WriteOptions.none().withHeader("Ordering-Key", SECRET),
            WriteOptions.none().withHeader("event-topic", SECRET),
            WriteOptions.none().withHeaders(tooMany));
    for (WriteOptions options : refused) {
      assertThatThrownBy(() -> rows.create(PLACED, JsonValue.NULL, options))
          .isInstanceOf(OutboxOptionsRefusedException.class)
          .hasMessageStartingWith("MBX-1004 Outbox write refused: ")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
    }
    assertThat(
            OutboxOptionsRefusedException.class
                .getAnnotation(jakarta.ejb.ApplicationException.class)
                .rollback())
        .as("the caller's transaction rolls back: no business change without its event")
        .isTrue();
  }

  @Test
  void aRowWrittenBeforeKeysWerePublishOptionsIsPublishedWithoutItsLongKey() {
    OutboxRow old =
        PendingRows.pending(
            "old-1", "k".repeat(200), "mem:events@shop/orders.placed.v1", "0001", 0, 0);

    MailMessage message = old.toMessage();

    assertThat(message.header(PublishOptions.ORDERING_KEY))
        .as("over the publish rule: relayed in key order all the same, published without it")
        .isEmpty();
    assertThat(message.header(PublishOptions.DEDUPLICATION_ID)).contains("old-1");
  }
}
