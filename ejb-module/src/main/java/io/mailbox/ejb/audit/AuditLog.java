package io.mailbox.ejb.audit;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.util.List;

/**
 * Records and lists audit entries. {@link #record} joins the caller's transaction, or starts one. A
 * change is recorded in two steps, each committed on its own: {@link #begin} before the change runs
 * (if it cannot be recorded, it does not run) and {@link #complete} after, so there is never a
 * change without its record; an entry left {@code STARTED} is a change that did not finish.
 */
@Stateless
public class AuditLog {
  private final Clock clock = Clock.systemUTC();

  @PersistenceContext(unitName = "mailbox")
  private EntityManager entityManager;

  @TransactionAttribute(TransactionAttributeType.REQUIRED)
  public AuditEntry record(
      String actor, String action, String target, long affected, AuditEntry.Result result) {
    AuditEntry entry = new AuditEntry(clock.instant(), actor, action, target, affected, result);
    entityManager.persist(entry);
    return entry;
  }

  /** Records, and commits, that a change is about to run; returns the entry's id. */
  @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
  public String begin(String actor, String action, String target) {
    AuditEntry entry =
        new AuditEntry(clock.instant(), actor, action, target, 0, AuditEntry.Result.STARTED);
    entityManager.persist(entry);
    return entry.id();
  }

  /** Completes, and commits, the entry {@link #begin} recorded with what the change did. */
  @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
  public void complete(String entryId, long affected, AuditEntry.Result result) {
    AuditEntry entry = entityManager.find(AuditEntry.class, entryId);
    if (entry == null) {
      throw new IllegalStateException("No audit entry " + entryId);
    }
    entry.complete(affected, result);
  }

  /** The newest entries first. */
  @TransactionAttribute(TransactionAttributeType.SUPPORTS)
  public List<AuditEntry> recent(int limit) {
    return entityManager
        .createQuery("SELECT a FROM AuditEntry a ORDER BY a.occurredAt DESC", AuditEntry.class)
        .setMaxResults(Math.max(1, Math.min(limit, 1000)))
        .getResultList();
  }
}
