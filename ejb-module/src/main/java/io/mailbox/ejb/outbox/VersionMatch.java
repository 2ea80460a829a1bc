package io.mailbox.ejb.outbox;

import jakarta.persistence.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The WHERE condition that matches a batch of rows each at its own claim version, in one statement:
 * {@code (r.claimVersion = :v0 AND r.id IN :ids0) OR ...}, one term per distinct version. A batch's
 * rows are nearly always at one or two versions (0 for fresh rows), so the statement's text stays
 * the same from batch to batch and the database keeps its plan.
 */
final class VersionMatch {
  private final Map<Long, List<String>> idsByVersion;

  private VersionMatch(Map<Long, List<String>> idsByVersion) {
    this.idsByVersion = idsByVersion;
  }

  static VersionMatch of(List<OutboxStore.Version> rows) {
    Map<Long, List<String>> byVersion = new TreeMap<>();
    for (OutboxStore.Version row : rows) {
      byVersion.computeIfAbsent(row.version(), v -> new ArrayList<>()).add(row.id());
    }
    return new VersionMatch(byVersion);
  }

  /** The JPQL condition on {@code r}, with parameters {@code v<i>} and {@code ids<i>}. */
  String condition() {
    List<String> terms = new ArrayList<>();
    for (int i = 0; i < idsByVersion.size(); i++) {
      terms.add("(r.claimVersion = :v" + i + " AND r.id IN :ids" + i + ")");
    }
    return String.join(" OR ", terms);
  }

  /** Binds the condition's parameters on {@code query}. */
  Query bind(Query query) {
    int i = 0;
    for (Map.Entry<Long, List<String>> group : idsByVersion.entrySet()) {
      query.setParameter("v" + i, group.getKey()).setParameter("ids" + i, group.getValue());
      i++;
    }
    return query;
  }
}
