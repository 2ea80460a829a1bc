package io.mailbox.ejb.outbox;

import java.util.Map;
import java.util.TreeMap;

/**
 * How one event is written. All optional.
 *
 * @param orderingKey rows of one key are relayed in write order; overrides the definition's
 *     selector. Published as the message's ordering key (the partition or record key where the
 *     transport has one), so at most 128 UTF-8 bytes
 * @param tenantId recorded in the row; keys of different tenants never block each other
 * @param envelopeId the envelope (and message) id; a random UUID when null
 * @param aggregateId with {@code aggregateVersion}: the entity the event is about
 * @param aggregateVersion its version, so consumers can order what the broker may reorder
 * @param causedBy an envelope this event is a consequence of (copies correlation and causation)
 * @param deduplicationId the publish de-duplication id (at most 128 UTF-8 bytes); the envelope id
 *     when null, so every re-send of a row carries the same one
 * @param headers the caller's headers, published with every send of the row (at most 32, names not
 *     reserved, values at most 1 KiB: {@code api.PublishOptions})
 */
public record WriteOptions(
    String orderingKey,
    String tenantId,
    String envelopeId,
    String aggregateId,
    Long aggregateVersion,
    io.mailbox.ejb.event.IntegrationEventEnvelope causedBy,
    String deduplicationId,
    Map<String, String> headers) {

  public WriteOptions {
    headers = headers == null ? Map.of() : Map.copyOf(headers);
  }

  public static WriteOptions none() {
    return new WriteOptions(null, null, null, null, null, null, null, Map.of());
  }

  public WriteOptions withOrderingKey(String key) {
    return new WriteOptions(
        key,
        tenantId,
        envelopeId,
        aggregateId,
        aggregateVersion,
        causedBy,
        deduplicationId,
        headers);
  }

  public WriteOptions withTenant(String tenant) {
    return new WriteOptions(
        orderingKey,
        tenant,
        envelopeId,
        aggregateId,
        aggregateVersion,
        causedBy,
        deduplicationId,
        headers);
  }

  public WriteOptions withEnvelopeId(String id) {
    return new WriteOptions(
        orderingKey,
        tenantId,
        id,
        aggregateId,
        aggregateVersion,
        causedBy,
        deduplicationId,
        headers);
  }

  public WriteOptions withAggregate(String id, long version) {
    return new WriteOptions(
        orderingKey, tenantId, envelopeId, id, version, causedBy, deduplicationId, headers);
  }

  public WriteOptions withCause(io.mailbox.ejb.event.IntegrationEventEnvelope consumed) {
    return new WriteOptions(
        orderingKey,
        tenantId,
        envelopeId,
        aggregateId,
        aggregateVersion,
        consumed,
        deduplicationId,
        headers);
  }

  public WriteOptions withDeduplicationId(String id) {
    return new WriteOptions(
        orderingKey, tenantId, envelopeId, aggregateId, aggregateVersion, causedBy, id, headers);
  }

  /** Adds a caller header (replacing one of the same name). */
  public WriteOptions withHeader(String name, String value) {
    Map<String, String> more = new TreeMap<>(headers);
    more.put(name, value);
    return withHeaders(more);
  }

  /** Replaces the caller headers. */
  public WriteOptions withHeaders(Map<String, String> all) {
    return new WriteOptions(
        orderingKey,
        tenantId,
        envelopeId,
        aggregateId,
        aggregateVersion,
        causedBy,
        deduplicationId,
        all);
  }
}
