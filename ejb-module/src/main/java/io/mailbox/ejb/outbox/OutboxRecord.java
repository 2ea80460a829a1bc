package io.mailbox.ejb.outbox;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import java.util.Objects;

/**
 * One outbox row. Written once by {@link OutboxWriter} in the caller's transaction; afterwards only
 * the relay's compare-and-set updates (on {@code claimVersion}) and operator releases change it.
 * Times are epoch milliseconds, portable across H2, PostgreSQL and MariaDB. DDL: {@code
 * server-config/sql/<database>/outbox.sql}.
 */
@Entity
@Table(
    name = "MBX_OUTBOX",
    indexes = {
      @Index(name = "MBX_OUTBOX_RELAY", columnList = "STATUS, POSITION"),
      @Index(name = "MBX_OUTBOX_PURGE", columnList = "STATUS, SETTLED_AT")
    })
public class OutboxRecord {
  @Id
  @Column(name = "ID", length = 128, nullable = false, updatable = false)
  private String id;

  @Column(name = "TOPIC", length = 255, nullable = false, updatable = false)
  private String topic;

  @Column(name = "ADDRESS", length = 1000, nullable = false, updatable = false)
  private String address;

  // Not @Lob: a plain string column reads the same on H2 (VARCHAR), PostgreSQL (TEXT) and MariaDB
  // (LONGTEXT); the shipped DDL sizes it, generation uses the length.
  @Column(name = "ENVELOPE", length = 1_048_576, nullable = false, updatable = false)
  private String envelope;

  @Column(name = "ORDERING_KEY", length = 255, updatable = false)
  private String orderingKey;

  @Column(name = "TENANT_ID", length = 100, updatable = false)
  private String tenantId;

  @Column(name = "POSITION", length = 40, nullable = false, updatable = false)
  private String position;

  @Column(name = "CREATED_AT", nullable = false, updatable = false)
  private long createdAt;

  @Enumerated(EnumType.STRING)
  @Column(name = "STATUS", length = 16, nullable = false)
  private OutboxStatus status;

  @Column(name = "ATTEMPTS", nullable = false)
  private int attempts;

  @Column(name = "AVAILABLE_AT", nullable = false)
  private long availableAt;

  @Column(name = "CLAIM_VERSION", nullable = false)
  private long claimVersion;

  @Column(name = "LEASE_UNTIL", nullable = false)
  private long leaseUntil;

  @Column(name = "LAST_ERROR", length = 1024)
  private String lastError;

  @Column(name = "SETTLED_AT")
  private Long settledAt;

  @Column(name = "SENT_BY", length = 100)
  private String sentBy;

  protected OutboxRecord() {
    // for JPA
  }

  OutboxRecord(
      String id,
      String topic,
      String address,
      String envelope,
      String orderingKey,
      String tenantId,
      String position,
      long createdAt) {
    this.id = Objects.requireNonNull(id);
    this.topic = Objects.requireNonNull(topic);
    this.address = Objects.requireNonNull(address);
    this.envelope = Objects.requireNonNull(envelope);
    this.orderingKey = orderingKey;
    this.tenantId = tenantId;
    this.position = Objects.requireNonNull(position);
    this.createdAt = createdAt;
    this.status = OutboxStatus.PENDING;
    this.availableAt = createdAt;
  }

  /** The row as the relay and the operations see it. */
  OutboxRow view() {
    return new OutboxRow(
        id,
        topic,
        address,
        envelope,
        orderingKey,
        tenantId,
        position,
        createdAt,
        status,
        attempts,
        availableAt,
        claimVersion,
        leaseUntil,
        lastError,
        settledAt);
  }

  public String id() {
    return id;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OutboxRecord that && Objects.equals(id, that.id);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(id);
  }
}
