package io.mailbox.ejb.inbox;

import jakarta.annotation.Resource;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Optional;

/**
 * The inbox's transactions in the server: each method a new JTA transaction. The handler run by
 * {@link #runWithMarker} writes through its own container-managed entity managers, which join this
 * transaction, so its writes commit with the marker or not at all.
 */
// @LocalBean: it implements an interface, and without this its class would not be an injectable
// view.
@Stateless
@LocalBean
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class JtaInboxTransactions implements InboxTransactions {
  @PersistenceContext(unitName = "mailbox")
  private EntityManager em;

  @Resource private SessionContext context;

  @Override
  public Optional<InboxRow> find(String id) {
    return new JpaInboxQueries(em).find(id);
  }

  @Override
  public boolean runWithMarker(InboxRow marker, Work work) throws Exception {
    JpaInboxQueries queries = new JpaInboxQueries(em);
    if (queries.find(marker.id()).isPresent()) {
      return false;
    }
    queries.insert(marker);
    try {
      work.run();
      em.flush();
    } catch (Exception e) {
      // A checked exception would otherwise commit: the marker must never outlive a failed handler.
      context.setRollbackOnly();
      throw e;
    }
    return true;
  }

  @Override
  public int recordFailure(InboxRow counter, String error) {
    return new JpaInboxQueries(em).recordFailure(counter, error, System.currentTimeMillis());
  }

  @Override
  public boolean park(InboxRow parked) {
    return new JpaInboxQueries(em).park(parked);
  }

  @Override
  public List<InboxRow> parked(int limit) {
    return new JpaInboxQueries(em).parked(limit);
  }

  @Override
  public InboxRelease release(String id, boolean retry, long now) {
    return new JpaInboxQueries(em).release(id, retry, now);
  }

  @Override
  public int purge(long before, int limit) {
    return new JpaInboxQueries(em).purge(before, limit);
  }

  @Override
  public long count(InboxStatus status) {
    return new JpaInboxQueries(em).count(status);
  }
}
