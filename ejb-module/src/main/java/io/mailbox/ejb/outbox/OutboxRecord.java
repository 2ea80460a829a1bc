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
      @Index(name = "MBX_OUTBOX_PURGE", columnList = "STATUS, SETTLED_AT"),
      @Index(name = "MBX_OUTBOX_KEY", columnList = "ORDERING_KEY, TENANT_ID, STATUS, POSITION")
    })
public class OutboxRecord {
  // The column sizes, once for the mapping and the write check; the shipped DDL
  // (server-config/sql/*/outbox.sql) declares the same. Counted in UTF-16 units, never fewer than
  // the characters the databases count, so a value that passes here always fits.
  static final int MAX_ID = 128;
  static final int MAX_ADDRESS = 1000;
  static final int MAX_ORDERING_KEY = 255;
  static final int MAX_TENANT_ID = 100;
  static final int MAX_DEDUPLICATION_ID = 512;

  @Id
  @Column(name = "ID", length = MAX_ID, nullable = false, updatable = false)
  private String id;

  @Column(name = "TOPIC", length = 255, nullable = false, updatable = false)
  private String topic;

  @Column(name = "ADDRESS", length = MAX_ADDRESS, nullable = false, updatable = false)
  private String address;

  // Not @Lob: a plain string column reads the same on H2 (VARCHAR), PostgreSQL (TEXT) and MariaDB
  // (LONGTEXT); the shipped DDL sizes it, generation uses the length.
  @Column(name = "ENVELOPE", length = 1_048_576, nullable = false, updatable = false)
  private String envelope;

  @Column(name = "ORDERING_KEY", length = MAX_ORDERING_KEY, updatable = false)
  private String orderingKey;

  @Column(name = "DEDUPLICATION_ID", length = MAX_DEDUPLICATION_ID, updatable = false)
  private String deduplicationId;

  // The caller's headers as a JSON object (null: none); a plain string column like ENVELOPE.
  @Column(name = "HEADERS", length = 1_048_576, updatable = false)
  private String headers;

  @Column(name = "TENANT_ID", length = MAX_TENANT_ID, updatable = false)
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

  /**
   * A row's publish options, each published with every send of it.
   *
   * @param orderingKey relay order among the key's rows and the message's ordering key; or null
   * @param deduplicationId the publish de-duplication id; null: the envelope id
   * @param headers the caller's headers as stored ({@link OutboxHeaders}); null: none
   */
  record Options(String orderingKey, String deduplicationId, String headers) {}

  OutboxRecord(
      String id,
      String topic,
      String address,
      String envelope,
      Options options,
      String tenantId,
      String position,
      long createdAt) {
    String orderingKey = options.orderingKey();
    // Checked here, before the row exists: too long a value would otherwise fail at flush or commit
    // with the database's own error, after the caller's business writes.
    fits("envelope id", id, MAX_ID);
    fits("address", address, MAX_ADDRESS);
    fits("ordering key", orderingKey, MAX_ORDERING_KEY);
    fits("tenant id", tenantId, MAX_TENANT_ID);
    fits("de-duplication id", options.deduplicationId(), MAX_DEDUPLICATION_ID);
    this.id = Objects.requireNonNull(id);
    this.topic = Objects.requireNonNull(topic);
    this.address = Objects.requireNonNull(address);
    this.envelope = Objects.requireNonNull(envelope);
    this.orderingKey = orderingKey;
    this.deduplicationId = options.deduplicationId();
    this.headers = options.headers();
    this.tenantId = tenantId;
    this.position = Objects.requireNonNull(position);
    this.createdAt = createdAt;
    this.status = OutboxStatus.PENDING;
    this.availableAt = createdAt;
  }

  /** Refuses a value longer than its column, naming the field and lengths but not the value. */
  private static void fits(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw new OutboxWriteRefusedException(
          field + " is " + value.length() + " characters; the outbox keeps at most " + max);
    }
  }

  /** The row as the relay and the operations see it. */
  OutboxRow view() {
    return new OutboxRow(
        id,
        topic,
        address,
        envelope,
        orderingKey,
        deduplicationId,
        headers,
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
