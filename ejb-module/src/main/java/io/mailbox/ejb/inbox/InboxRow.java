package io.mailbox.ejb.inbox;

/**
 * A read-only snapshot of one inbox row; {@code envelope} is present only where a call says so.
 *
 * @param envelopeId the event's id as sent; one longer than 128 characters is kept shortened (its
 *     delivery is parked, see {@link InboxProcessor})
 * @param sourceAddress the address the delivery came from, where the caller said; {@code null} when
 *     unknown (release → retry then refuses)
 */
public record InboxRow(
    String id,
    String consumer,
    String topic,
    String envelopeId,
    InboxStatus status,
    int attempts,
    long updatedAt,
    String lastError,
    String envelope,
    String sourceAddress) {}
