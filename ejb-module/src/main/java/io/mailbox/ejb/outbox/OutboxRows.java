package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.function.Function;

/**
 * Turns one event into an outbox row: builds and validates the envelope, picks the ordering key
 * (caller first, then the definition's selector), checks the size, resolves the address, stamps the
 * write position. Shared by {@link OutboxWriter} and the tests that write rows without a server.
 */
public final class OutboxRows {
  private final Clock clock;
  private final Function<String, String> addressForTopic;
  private final int maxEnvelopeBytes;

  public OutboxRows(Clock clock, Function<String, String> addressForTopic, int maxEnvelopeBytes) {
    this.clock = clock;
    this.addressForTopic = addressForTopic;
    this.maxEnvelopeBytes = maxEnvelopeBytes;
  }

  public <T> OutboxRecord create(
      IntegrationEventDefinition<T> definition, JsonValue data, WriteOptions options) {
    return create(definition, data, options, addressForTopic.apply(definition.topic()));
  }

  /**
   * As {@link #create(IntegrationEventDefinition, JsonValue, WriteOptions)}, to a given address.
   */
  public <T> OutboxRecord create(
      IntegrationEventDefinition<T> definition,
      JsonValue data,
      WriteOptions options,
      String address) {
    IntegrationEventEnvelope.Builder builder = IntegrationEventEnvelope.of(definition, data);
    if (options.envelopeId() != null) {
      builder.id(options.envelopeId());
    }
    if (options.aggregateId() != null && options.aggregateVersion() != null) {
      builder.aggregate(options.aggregateId(), options.aggregateVersion());
    }
    if (options.causedBy() != null) {
      builder.causedBy(options.causedBy());
    }
    IntegrationEventEnvelope envelope = builder.build();
    String json = envelope.toJson();
    int bytes = json.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxEnvelopeBytes) {
      throw new OutboxEnvelopeTooLargeException(definition.topic(), bytes, maxEnvelopeBytes);
    }
    String orderingKey =
        options.orderingKey() != null
            ? options.orderingKey()
            : definition.orderingKeyOf(envelope).orElse(null);
    return new OutboxRecord(
        envelope.id(),
        definition.topic(),
        MailAddress.parse(address).toString(),
        json,
        orderingKey,
        options.tenantId(),
        RowPosition.next(clock),
        clock.millis());
  }
}
