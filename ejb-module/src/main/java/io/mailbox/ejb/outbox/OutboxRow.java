package io.mailbox.ejb.outbox;

/**
 * A read-only snapshot of one outbox row.
 *
 * @param id the envelope id (also the published message id, so every re-send de-duplicates)
 * @param topic the event's versioned topic
 * @param address where the relay publishes it
 * @param orderingKey rows of one key are relayed in write order; {@code null} never blocks
 * @param position write order (fixed width, compares as text)
 * @param availableAt when the next attempt may start (epoch ms)
 * @param claimVersion bumped by every claim; every status write must hold it
 * @param leaseUntil when the current claim ends (epoch ms)
 */
public record OutboxRow(
    String id,
    String topic,
    String address,
    String envelope,
    String orderingKey,
    String tenantId,
    String position,
    long createdAt,
    OutboxStatus status,
    int attempts,
    long availableAt,
    long claimVersion,
    long leaseUntil,
    String lastError,
    Long settledAt) {

  /**
   * The message this row is published as, whatever carries it: the envelope id as message id, so
   * every re-send carries the same id and a consumer inbox drops the repeat.
   */
  public io.mailbox.connector.api.MailMessage toMessage() {
    return io.mailbox.connector.api.MailMessage.to(address)
        .id(id)
        .header("event-topic", topic)
        .header("content-type", "application/vnd.mailbox.event+json")
        .body(envelope)
        .build();
  }

  /**
   * The key that blocks later rows: tenant and ordering key, or {@code null} for an unkeyed row.
   */
  String blockingKey() {
    return blockingKey(tenantId, orderingKey);
  }

  static String blockingKey(String tenantId, String orderingKey) {
    return orderingKey == null ? null : (tenantId == null ? "" : tenantId) + '\u0000' + orderingKey;
  }
}
