package io.mailbox.ejb.inbox;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import java.util.Objects;

/**
 * One inbox row: a marker (processed, parked, discarded) or a failure counter. Its id is a SHA-256
 * of (consumer, topic, envelope id), whatever id a producer sent. DDL: {@code
 * server-config/sql/<database>/inbox.sql}.
 */
@Entity
@Table(
    name = "MBX_INBOX",
    indexes = @Index(name = "MBX_INBOX_STATUS", columnList = "STATUS, UPDATED_AT"))
public class InboxMarker {
  @Id
  @Column(name = "ID", length = 80, nullable = false, updatable = false)
  private String id;

  @Column(name = "CONSUMER", length = 200, nullable = false, updatable = false)
  private String consumer;

  @Column(name = "TOPIC", length = 255, nullable = false, updatable = false)
  private String topic;

  @Column(name = "ENVELOPE_ID", length = 128, updatable = false)
  private String envelopeId;

  @Enumerated(EnumType.STRING)
  @Column(name = "STATUS", length = 16, nullable = false)
  private InboxStatus status;

  @Column(name = "ATTEMPTS", nullable = false)
  private int attempts;

  @Column(name = "UPDATED_AT", nullable = false)
  private long updatedAt;

  @Column(name = "LAST_ERROR", length = 1024)
  private String lastError;

  @Column(name = "ENVELOPE", length = 1_048_576)
  private String envelope;

  // Nullable: markers written before it existed, and deliveries processed without an address.
  // Release → retry re-posts here and refuses without it (MBX-3005).
  @Column(name = "SOURCE_ADDRESS", length = 1000, updatable = false)
  private String sourceAddress;

  protected InboxMarker() {
    // for JPA
  }

  InboxMarker(
      String id,
      String consumer,
      String topic,
      String envelopeId,
      InboxStatus status,
      int attempts,
      long updatedAt,
      String lastError,
      String envelope,
      String sourceAddress) {
    this.id = Objects.requireNonNull(id);
    this.consumer = Objects.requireNonNull(consumer);
    this.topic = Objects.requireNonNull(topic);
    this.envelopeId = envelopeId;
    this.status = Objects.requireNonNull(status);
    this.attempts = attempts;
    this.updatedAt = updatedAt;
    this.lastError = lastError;
    this.envelope = envelope;
    this.sourceAddress = sourceAddress;
  }

  InboxRow view(boolean withEnvelope) {
    return new InboxRow(
        id,
        consumer,
        topic,
        envelopeId,
        status,
        attempts,
        updatedAt,
        lastError,
        withEnvelope ? envelope : null,
        sourceAddress);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof InboxMarker that && Objects.equals(id, that.id);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(id);
  }
}
