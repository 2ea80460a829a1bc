package io.mailbox.ejb.audit;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One recorded action. Ids are UUIDs assigned here (no IDENTITY columns: EclipseLink's H2 DDL for
 * them fails, see PLATFORM.md). Entries are never updated.
 */
@Entity
@Table(name = "MBX_AUDIT", indexes = @Index(name = "MBX_AUDIT_AT", columnList = "OCCURRED_AT"))
public class AuditEntry {

  /** How an audited action ended. */
  public enum Result {
    SUCCEEDED,
    REFUSED,
    FAILED
  }

  @Id
  @Column(name = "ID", length = 36, nullable = false, updatable = false)
  private String id;

  @Column(name = "OCCURRED_AT", nullable = false, updatable = false)
  private Instant occurredAt;

  @Column(name = "ACTOR", length = 200, nullable = false, updatable = false)
  private String actor;

  @Column(name = "ACTION", length = 100, nullable = false, updatable = false)
  private String action;

  @Column(name = "TARGET", length = 500, updatable = false)
  private String target;

  @Column(name = "AFFECTED", nullable = false, updatable = false)
  private long affected;

  @Enumerated(EnumType.STRING)
  @Column(name = "RESULT", length = 20, nullable = false, updatable = false)
  private Result result;

  protected AuditEntry() {
    // for JPA
  }

  /** A new entry (the audit log records it; tests build their own). */
  public AuditEntry(
      Instant occurredAt,
      String actor,
      String action,
      String target,
      long affected,
      Result result) {
    this.id = UUID.randomUUID().toString();
    this.occurredAt = Objects.requireNonNull(occurredAt, "occurredAt");
    this.actor = requireText(actor, "actor");
    this.action = requireText(action, "action");
    this.target = target;
    this.affected = affected;
    this.result = Objects.requireNonNull(result, "result");
  }

  private static String requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("An audit entry needs a non-blank " + name);
    }
    return value;
  }

  public String id() {
    return id;
  }

  public Instant occurredAt() {
    return occurredAt;
  }

  public String actor() {
    return actor;
  }

  public String action() {
    return action;
  }

  public String target() {
    return target;
  }

  public long affected() {
    return affected;
  }

  public Result result() {
    return result;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof AuditEntry that && Objects.equals(id, that.id);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(id);
  }
}
