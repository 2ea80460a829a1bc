package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.PublishOptions;
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
    MailAddress to = MailAddress.parse(address);
    // The columns' limits first (MBX-3007), then the rules of the message it is published as.
    OutboxRecord record =
        new OutboxRecord(
            envelope.id(),
            definition.topic(),
            to.toString(),
            json,
            new OutboxRecord.Options(
                orderingKey, options.deduplicationId(), OutboxHeaders.write(options.headers())),
            options.tenantId(),
            RowPosition.next(clock),
            clock.millis());
    checkPublishOptions(to, envelope.id(), definition.topic(), orderingKey, options);
    return record;
  }

  /**
   * The rules every post keeps ({@link PublishOptions}), checked now on the message the relay will
   * publish, before the row exists: a row the relay could never publish would otherwise fail every
   * attempt after the caller committed.
   */
  private static void checkPublishOptions(
      MailAddress to, String envelopeId, String topic, String orderingKey, WriteOptions options) {
    for (String name : options.headers().keySet()) {
      if (OutboxRow.OUTBOX_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
        throw new OutboxOptionsRefusedException(
            new MailboxException(
                ErrorCode.INVALID_MESSAGE,
                "Header names "
                    + new java.util.TreeSet<>(OutboxRow.OUTBOX_HEADERS)
                    + " are set by the outbox (the ordering key and the de-duplication id with"
                    + " WriteOptions.withOrderingKey and withDeduplicationId)."));
      }
    }
    if (orderingKey != null && !PublishOptions.fitsKey(orderingKey)) {
      throw new OutboxOptionsRefusedException(
          new MailboxException(
              ErrorCode.INVALID_MESSAGE,
              "The "
                  + PublishOptions.ORDERING_KEY
                  + " must be 1 to "
                  + PublishOptions.MAX_KEY_BYTES
                  + " UTF-8 bytes without control characters and not blank."));
    }
    try {
      PublishOptions.check(
          OutboxRow.message(
              to.toString(),
              envelopeId,
              topic,
              orderingKey,
              options.deduplicationId(),
              options.headers(),
              "{}"));
    } catch (MailboxException refused) {
      throw new OutboxOptionsRefusedException(refused);
    }
  }
}
