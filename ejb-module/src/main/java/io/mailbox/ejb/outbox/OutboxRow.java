package io.mailbox.ejb.outbox;

/**
 * A read-only snapshot of one outbox row.
 *
 * @param id the envelope id (also the published message id, so every re-send de-duplicates)
 * @param topic the event's versioned topic
 * @param address where the relay publishes it
 * @param orderingKey rows of one key are relayed in write order; {@code null} never blocks
 * @param deduplicationId the publish de-duplication id; {@code null}: the envelope id
 * @param headers the caller's headers as stored (a JSON object), or {@code null}
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
    String deduplicationId,
    String headers,
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
    return message(
        address, id, topic, orderingKey, deduplicationId, OutboxHeaders.read(headers), envelope);
  }

  /** The headers the outbox sets on every message it publishes; a caller may not set them. */
  static final java.util.Set<String> OUTBOX_HEADERS =
      java.util.Set.of(
          "event-topic",
          "content-type",
          io.mailbox.connector.api.PublishOptions.ORDERING_KEY,
          io.mailbox.connector.api.PublishOptions.DEDUPLICATION_ID);

  /**
   * A row's message, built the one way both the write's check and the relay use: the caller's
   * headers, then the outbox's own, the ordering key and the de-duplication id (the envelope id
   * unless the writer chose one, so every re-send carries the same).
   */
  static io.mailbox.connector.api.MailMessage message(
      String address,
      String id,
      String topic,
      String orderingKey,
      String deduplicationId,
      java.util.Map<String, String> callerHeaders,
      String body) {
    io.mailbox.connector.api.MailMessage.Builder message =
        io.mailbox.connector.api.MailMessage.to(address).id(id);
    callerHeaders.forEach(message::header);
    message
        .header("event-topic", topic)
        .header("content-type", "application/vnd.mailbox.event+json")
        .deduplicationId(deduplicationId != null ? deduplicationId : id);
    if (orderingKey != null && io.mailbox.connector.api.PublishOptions.fitsKey(orderingKey)) {
      // A row written before keys were publish options may hold a longer one (its column takes
      // 255 characters): relayed in order all the same, published without it.
      message.orderingKey(orderingKey);
    }
    return message.body(body).build();
  }

  /** The caller's headers the row is published with. */
  public java.util.Map<String, String> callerHeaders() {
    return OutboxHeaders.read(headers);
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
