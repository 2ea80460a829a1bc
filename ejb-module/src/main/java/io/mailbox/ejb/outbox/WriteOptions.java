package io.mailbox.ejb.outbox;

/**
 * How one event is written. All optional.
 *
 * @param orderingKey rows of one key are relayed in write order; overrides the definition's
 *     selector
 * @param tenantId recorded in the row; keys of different tenants never block each other
 * @param envelopeId the envelope (and message) id; a random UUID when null
 * @param aggregateId with {@code aggregateVersion}: the entity the event is about
 * @param aggregateVersion its version, so consumers can order what the broker may reorder
 * @param causedBy an envelope this event is a consequence of (copies correlation and causation)
 */
public record WriteOptions(
    String orderingKey,
    String tenantId,
    String envelopeId,
    String aggregateId,
    Long aggregateVersion,
    io.mailbox.ejb.event.IntegrationEventEnvelope causedBy) {

  public static WriteOptions none() {
    return new WriteOptions(null, null, null, null, null, null);
  }

  public WriteOptions withOrderingKey(String key) {
    return new WriteOptions(key, tenantId, envelopeId, aggregateId, aggregateVersion, causedBy);
  }

  public WriteOptions withTenant(String tenant) {
    return new WriteOptions(
        orderingKey, tenant, envelopeId, aggregateId, aggregateVersion, causedBy);
  }

  public WriteOptions withEnvelopeId(String id) {
    return new WriteOptions(orderingKey, tenantId, id, aggregateId, aggregateVersion, causedBy);
  }

  public WriteOptions withAggregate(String id, long version) {
    return new WriteOptions(orderingKey, tenantId, envelopeId, id, version, causedBy);
  }

  public WriteOptions withCause(io.mailbox.ejb.event.IntegrationEventEnvelope consumed) {
    return new WriteOptions(
        orderingKey, tenantId, envelopeId, aggregateId, aggregateVersion, consumed);
  }
}
