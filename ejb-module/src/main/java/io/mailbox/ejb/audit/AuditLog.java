package io.mailbox.ejb.audit;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.util.List;

/** Records and lists audit entries. Recording joins the caller's transaction, or starts one. */
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

  /** The newest entries first. */
  @TransactionAttribute(TransactionAttributeType.SUPPORTS)
  public List<AuditEntry> recent(int limit) {
    return entityManager
        .createQuery("SELECT a FROM AuditEntry a ORDER BY a.occurredAt DESC", AuditEntry.class)
        .setMaxResults(Math.max(1, Math.min(limit, 1000)))
        .getResultList();
  }
}
