package io.mailbox.ejb.outbox;

import jakarta.persistence.EntityManager;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Outbox rows an operator looks for: by id (the envelope id, which is also the published message
 * id) or de-duplication id, and by a fragment of the envelope. Read only, newest first, bounded in
 * rows and by the statement timeout: a fragment is a scan of the envelopes (no index can serve a
 * substring), so a large table answers what it found within the bound.
 */
public final class OutboxSearch {
  /** The shortest fragment searched inside envelopes: shorter ones match nearly everything. */
  public static final int MIN_FRAGMENT = 3;

  private OutboxSearch() {}

  public static List<OutboxRow> find(EntityManager em, String term, int limit, int timeoutMillis) {
    Map<String, OutboxRow> found = new LinkedHashMap<>();
    em.createQuery(
            "SELECT r FROM OutboxRecord r WHERE r.id = :term OR r.deduplicationId = :term"
                + " ORDER BY r.position DESC",
            OutboxRecord.class)
        .setParameter("term", term)
        .setMaxResults(limit)
        .setHint(JpaOutboxQueries.QUERY_TIMEOUT, timeoutMillis)
        .getResultList()
        .forEach(record -> found.put(record.id(), record.view()));
    if (term.length() >= MIN_FRAGMENT && found.size() < limit) {
      em.createQuery(
              "SELECT r FROM OutboxRecord r WHERE r.envelope LIKE :pattern ESCAPE '!'"
                  + " ORDER BY r.position DESC",
              OutboxRecord.class)
          .setParameter("pattern", containing(term))
          .setMaxResults(limit - found.size())
          .setHint(JpaOutboxQueries.QUERY_TIMEOUT, timeoutMillis)
          .getResultList()
          .forEach(record -> found.putIfAbsent(record.id(), record.view()));
    }
    return List.copyOf(found.values());
  }

  /**
   * A LIKE pattern matching {@code term} anywhere, its wildcards taken literally. The escape is
   * {@code !}: a backslash is itself an escape in MariaDB's string literals.
   */
  public static String containing(String term) {
    return "%" + term.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
  }
}
