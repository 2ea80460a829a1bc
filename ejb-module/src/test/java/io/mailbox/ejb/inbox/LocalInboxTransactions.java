package io.mailbox.ejb.inbox;

import io.mailbox.ejb.testsupport.TestDatabase;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityTransaction;
import java.util.List;
import java.util.Optional;

/**
 * {@link InboxTransactions} with resource-local transactions, for the database suites. The
 * handler's writes reach the marker's transaction through {@link #current()}, as a
 * container-managed entity manager joins the JTA transaction in the server.
 */
final class LocalInboxTransactions implements InboxTransactions {
  private static final ThreadLocal<EntityManager> CURRENT = new ThreadLocal<>();

  private final TestDatabase database;

  LocalInboxTransactions(TestDatabase database) {
    this.database = database;
  }

  /** The entity manager of the marker transaction running on this thread. */
  static EntityManager current() {
    return CURRENT.get();
  }

  @Override
  public Optional<InboxRow> find(String id) {
    return database.inTransaction(em -> new JpaInboxQueries(em).find(id));
  }

  @Override
  public boolean runWithMarker(InboxRow marker, Work work) throws Exception {
    EntityManager em = database.factory().createEntityManager();
    EntityTransaction tx = em.getTransaction();
    CURRENT.set(em);
    try {
      tx.begin();
      JpaInboxQueries queries = new JpaInboxQueries(em);
      if (queries.find(marker.id()).isPresent()) {
        return false;
      }
      queries.insert(marker);
      work.run();
      em.flush();
      tx.commit();
      return true;
    } finally {
      CURRENT.remove();
      if (tx.isActive()) {
        tx.rollback();
      }
      em.close();
    }
  }

  @Override
  public int recordFailure(InboxRow counter, String error) {
    return database.inTransaction(
        em -> new JpaInboxQueries(em).recordFailure(counter, error, System.currentTimeMillis()));
  }

  @Override
  public boolean park(InboxRow parked) {
    try {
      return database.inTransaction(em -> new JpaInboxQueries(em).park(parked));
    } catch (RuntimeException raced) {
      return false;
    }
  }

  @Override
  public List<InboxRow> parked(int limit) {
    return database.inTransaction(em -> new JpaInboxQueries(em).parked(limit));
  }

  @Override
  public InboxRelease release(String id, boolean retry, long now) {
    return database.inTransaction(em -> new JpaInboxQueries(em).release(id, retry, now));
  }

  @Override
  public int purge(long before, int limit) {
    return database.inTransaction(em -> new JpaInboxQueries(em).purge(before, limit));
  }

  @Override
  public long count(InboxStatus status) {
    return database.inTransaction(em -> new JpaInboxQueries(em).count(status));
  }
}
