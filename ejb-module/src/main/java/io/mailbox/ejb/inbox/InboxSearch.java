package io.mailbox.ejb.inbox;

import io.mailbox.ejb.outbox.OutboxSearch;
import jakarta.persistence.EntityManager;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Inbox markers an operator looks for: by marker id or envelope id, and by a fragment of the kept
 * envelope. Read only, newest first, bounded as {@link OutboxSearch} is.
 */
public final class InboxSearch {
  private static final String QUERY_TIMEOUT = "jakarta.persistence.query.timeout";

  private InboxSearch() {}

  /**
   * @param inEnvelopes whether to look for {@code term} inside the kept envelopes too (a scan), or
   *     only as an id
   */
  public static List<InboxRow> find(
      EntityManager em, String term, boolean inEnvelopes, int limit, int timeoutMillis) {
    Map<String, InboxRow> found = new LinkedHashMap<>();
    em
        .createQuery(
            "SELECT m FROM InboxMarker m WHERE m.id = :term OR m.envelopeId = :term"
                + " ORDER BY m.updatedAt DESC",
            InboxMarker.class)
        .setParameter("term", term)
        .setMaxResults(limit)
        .setHint(QUERY_TIMEOUT, timeoutMillis)
        .getResultList()
        .stream()
        .map(marker -> marker.view(false))
        .forEach(row -> found.put(row.id(), row));
    if (inEnvelopes && term.length() >= OutboxSearch.MIN_FRAGMENT && found.size() < limit) {
      em
          .createQuery(
              "SELECT m FROM InboxMarker m WHERE m.envelope LIKE :pattern ESCAPE '!'"
                  + " ORDER BY m.updatedAt DESC",
              InboxMarker.class)
          .setParameter("pattern", OutboxSearch.containing(term))
          .setMaxResults(limit - found.size())
          .setHint(QUERY_TIMEOUT, timeoutMillis)
          .getResultList()
          .stream()
          .map(marker -> marker.view(false))
          .forEach(row -> found.putIfAbsent(row.id(), row));
    }
    return List.copyOf(found.values());
  }
}
