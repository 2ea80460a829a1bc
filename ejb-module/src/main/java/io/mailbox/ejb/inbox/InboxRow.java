package io.mailbox.ejb.inbox;

/** A read-only snapshot of one inbox row; {@code envelope} is present only where a call says so. */
public record InboxRow(
    String id,
    String consumer,
    String topic,
    String envelopeId,
    InboxStatus status,
    int attempts,
    long updatedAt,
    String lastError,
    String envelope) {}
