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
 * them fails, see PLATFORM.md). A change is recorded {@link Result#STARTED} before it runs and
 * completed once after (its count and result); nothing else of an entry is ever updated. Texts
 * longer than their column are cut with a marker saying how much was left out, so recording never
 * fails on a long target.
 */
@Entity
@Table(name = "MBX_AUDIT", indexes = @Index(name = "MBX_AUDIT_AT", columnList = "OCCURRED_AT"))
public class AuditEntry {

  /** How an audited action ended. */
  public enum Result {
    /** Recorded before the change ran; stays so if the change never completed (a crash). */
    STARTED,
    SUCCEEDED,
    REFUSED,
    FAILED
  }

  @Id
  @Column(name = "ID", length = 36, nullable = false, updatable = false)
  private String id;

  @Column(name = "OCCURRED_AT", nullable = false, updatable = false)
  private Instant occurredAt;

  /** Column sizes; longer texts are cut with {@link #fit}. */
  static final int ACTOR_LENGTH = 200;

  static final int ACTION_LENGTH = 100;
  static final int TARGET_LENGTH = 500;

  @Column(name = "ACTOR", length = ACTOR_LENGTH, nullable = false, updatable = false)
  private String actor;

  @Column(name = "ACTION", length = ACTION_LENGTH, nullable = false, updatable = false)
  private String action;

  @Column(name = "TARGET", length = TARGET_LENGTH, updatable = false)
  private String target;

  @Column(name = "AFFECTED", nullable = false)
  private long affected;

  @Enumerated(EnumType.STRING)
  @Column(name = "RESULT", length = 20, nullable = false)
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
    this.actor = fit(requireText(actor, "actor"), ACTOR_LENGTH);
    this.action = fit(requireText(action, "action"), ACTION_LENGTH);
    this.target = target == null ? null : fit(target, TARGET_LENGTH);
    this.affected = affected;
    this.result = Objects.requireNonNull(result, "result");
  }

  /**
   * Completes an entry recorded {@link Result#STARTED} with what the change did.
   *
   * @throws IllegalStateException when the entry was completed already
   */
  public void complete(long affected, Result result) {
    if (this.result != Result.STARTED) {
      throw new IllegalStateException("Audit entry " + id + " was completed already");
    }
    if (Objects.requireNonNull(result, "result") == Result.STARTED) {
      throw new IllegalArgumentException("An entry is completed with its outcome, not STARTED");
    }
    this.affected = affected;
    this.result = result;
  }

  /**
   * The text as it fits a column of {@code max} characters: unchanged when it fits, otherwise cut
   * and ended with a marker such as {@code …[+240 chars]} (never splitting a surrogate pair).
   */
  static String fit(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    // The marker's own length depends on the count it shows; a 6-digit count is always enough
    // room for columns of this size.
    int keep = max - ("…[+" + text.length() + " chars]").length();
    if (Character.isHighSurrogate(text.charAt(keep - 1))) {
      keep--;
    }
    return text.substring(0, keep) + "…[+" + (text.length() - keep) + " chars]";
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
