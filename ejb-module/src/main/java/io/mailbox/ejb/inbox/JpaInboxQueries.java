package io.mailbox.ejb.inbox;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.Optional;

/** The inbox statements, run in the transaction the caller holds. */
public final class JpaInboxQueries {
  private final EntityManager em;

  public JpaInboxQueries(EntityManager em) {
    this.em = em;
  }

  public Optional<InboxRow> find(String id) {
    InboxMarker marker = em.find(InboxMarker.class, id);
    return Optional.ofNullable(marker).map(m -> m.view(false));
  }

  /** Inserts the marker and flushes, so a concurrent duplicate collides on the primary key now. */
  public void insert(InboxRow row) {
    em.persist(toEntity(row));
    em.flush();
  }

  /**
   * Counts one more failure; the count is a lower bound (two concurrent first failures count once).
   */
  public int recordFailure(InboxRow counter, String error, long now) {
    int updated =
        em.createQuery(
                "UPDATE InboxMarker m SET m.attempts = m.attempts + 1, m.updatedAt = :now, m.lastError = :error"
                    + " WHERE m.id = :id")
            .setParameter("now", now)
            .setParameter("error", error)
            .setParameter("id", counter.id())
            .executeUpdate();
    if (updated == 0) {
      em.persist(
          new InboxMarker(
              counter.id(),
              counter.consumer(),
              counter.topic(),
              counter.envelopeId(),
              InboxStatus.FAILURES,
              1,
              now,
              error,
              null,
              null));
      em.flush();
      return 1;
    }
    return em.createQuery("SELECT m.attempts FROM InboxMarker m WHERE m.id = :id", Integer.class)
        .setParameter("id", counter.id())
        .getSingleResult();
  }

  public boolean park(InboxRow parked) {
    if (em.find(InboxMarker.class, parked.id()) != null) {
      return false;
    }
    em.persist(toEntity(parked));
    return true;
  }

  public List<InboxRow> parked(int limit) {
    return em
        .createQuery(
            "SELECT m FROM InboxMarker m WHERE m.status = :parked ORDER BY m.updatedAt",
            InboxMarker.class)
        .setParameter("parked", InboxStatus.PARKED)
        .setMaxResults(limit)
        .getResultList()
        .stream()
        .map(m -> m.view(false))
        .toList();
  }

  /** See {@link InboxTransactions#release}: the marker is locked while it is decided. */
  public InboxRelease release(String id, boolean retry, long now) {
    InboxMarker marker = em.find(InboxMarker.class, id, LockModeType.PESSIMISTIC_WRITE);
    if (marker == null || marker.view(false).status() != InboxStatus.PARKED) {
      return new InboxRelease(InboxRelease.Result.NOT_PARKED, null);
    }
    InboxRow row = marker.view(true);
    if (retry && row.envelope() == null) {
      return new InboxRelease(InboxRelease.Result.NO_STORED_ENVELOPE, row);
    }
    if (retry && row.sourceAddress() == null) {
      return new InboxRelease(InboxRelease.Result.NO_SOURCE_ADDRESS, row);
    }
    em.remove(marker);
    em.flush();
    if (retry) {
      return new InboxRelease(InboxRelease.Result.RETRY, row);
    }
    em.persist(
        new InboxMarker(
            row.id(),
            row.consumer(),
            row.topic(),
            row.envelopeId(),
            InboxStatus.DISCARDED,
            row.attempts(),
            now,
            row.lastError(),
            null,
            row.sourceAddress()));
    return new InboxRelease(InboxRelease.Result.DISCARDED, row);
  }

  public int purge(long before, int limit) {
    int purged = 0;
    for (InboxStatus status : InboxStatus.values()) {
      List<String> ids =
          em.createQuery(
                  "SELECT m.id FROM InboxMarker m WHERE m.status = :status AND m.updatedAt < :before",
                  String.class)
              .setParameter("status", status)
              .setParameter("before", before)
              .setMaxResults(limit)
              .getResultList();
      if (!ids.isEmpty()) {
        purged +=
            em.createQuery("DELETE FROM InboxMarker m WHERE m.id IN :ids")
                .setParameter("ids", ids)
                .executeUpdate();
      }
    }
    return purged;
  }

  public long count(InboxStatus status) {
    return em.createQuery("SELECT COUNT(m) FROM InboxMarker m WHERE m.status = :status", Long.class)
        .setParameter("status", status)
        .getSingleResult();
  }

  private static InboxMarker toEntity(InboxRow row) {
    return new InboxMarker(
        row.id(),
        row.consumer(),
        row.topic(),
        row.envelopeId(),
        row.status(),
        row.attempts(),
        row.updatedAt(),
        row.lastError(),
        row.envelope(),
        row.sourceAddress());
  }
}
