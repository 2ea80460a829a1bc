package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.OutboxWriter;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.connector.api.VersionedTopic;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import jakarta.ejb.EJB;
import jakarta.ejb.Local;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outbox as the channel connector sees it ({@link OutboxWriter}): an outgoing channel with
 * {@code outbox.topic} writes its messages through here while the sender is in a JTA transaction.
 * Bound application-wide at {@link OutboxWriter#JNDI_NAME}, so it is found the same way whether the
 * application is one war (Payara Micro) or an EAR (Payara Server, WildFly).
 */
@Stateless
@Local(OutboxWriter.class)
@TransactionAttribute(TransactionAttributeType.MANDATORY)
@EJB(
    name = OutboxWriter.JNDI_NAME,
    beanInterface = OutboxWriter.class,
    beanName = "ChannelOutboxWriter")
public class ChannelOutboxWriter implements OutboxWriter {
  @EJB private Outbox outbox;

  @Override
  public String write(String address, String topic, String json, String envelopeId) {
    return write(address, topic, json, envelopeId, Map.of());
  }

  @Override
  public String write(
      String address, String topic, String json, String envelopeId, Map<String, String> headers) {
    VersionedTopic versioned = VersionedTopic.parse(topic, "outbox.topic");
    IntegrationEventDefinition<JsonValue> definition =
        IntegrationEventDefinition.define(
            versioned.type(), versioned.version(), topic, data -> data);
    return outbox.writeTo(address, definition, parse(json), options(envelopeId, headers));
  }

  /**
   * A channel message's headers as write options: the ordering key and the de-duplication id as the
   * row's options, every other header as a caller header.
   */
  static WriteOptions options(String envelopeId, Map<String, String> headers) {
    WriteOptions options = WriteOptions.none().withEnvelopeId(envelopeId);
    Map<String, String> callerHeaders = new TreeMap<>();
    for (Map.Entry<String, String> header : headers.entrySet()) {
      switch (header.getKey()) {
        case PublishOptions.ORDERING_KEY -> options = options.withOrderingKey(header.getValue());
        case PublishOptions.DEDUPLICATION_ID ->
            options = options.withDeduplicationId(header.getValue());
        default -> callerHeaders.put(header.getKey(), header.getValue());
      }
    }
    return options.withHeaders(callerHeaders);
  }

  /** JSON as JSON; any other text as a JSON string. */
  private static JsonValue parse(String text) {
    try (var reader = Json.createReader(new StringReader(text))) {
      return reader.readValue();
    } catch (JsonParsingException | IllegalStateException e) {
      return Json.createValue(text);
    }
  }
}
