package io.mailbox.ejb.outbox;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The outbox table for the relay and the operations inside the server: every call is its own
 * transaction (REQUIRES_NEW), so a claim commits before its publish starts and a status write never
 * rides on someone else's transaction.
 */
// @LocalBean: it implements an interface, and without this its class would not be an injectable
// view.
@Stateless
@LocalBean
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class TransactionalOutboxStore implements OutboxStore {
  @PersistenceContext(unitName = "mailbox")
  private EntityManager em;

  // Read once per bean instance: MicroProfile Config's value, validated with the relay's others.
  private final java.time.Duration storeTimeout = new OutboxConfig().relaySettings().storeTimeout();

  private OutboxStore queries() {
    return new JpaOutboxQueries(em, storeTimeout);
  }

  @Override
  public List<OutboxRow> page(String afterPosition, int limit) {
    return queries().page(afterPosition, limit);
  }

  @Override
  public Map<String, List<String>> openPositions(Set<String> orderingKeys, String upTo, int limit) {
    return queries().openPositions(orderingKeys, upTo, limit);
  }

  @Override
  public boolean claim(String id, long expectedVersion, long leaseUntil) {
    return queries().claim(id, expectedVersion, leaseUntil);
  }

  @Override
  public boolean markSent(String id, long heldVersion, long now, String sentBy) {
    return queries().markSent(id, heldVersion, now, sentBy);
  }

  @Override
  public List<Boolean> claimAll(List<Version> expected, long leaseUntil, String claimant) {
    return queries().claimAll(expected, leaseUntil, claimant);
  }

  @Override
  public List<Boolean> markAllSent(List<Version> held, long now, String sentBy) {
    return queries().markAllSent(held, now, sentBy);
  }

  @Override
  public boolean markRetry(
      String id, long heldVersion, int attempts, long availableAt, String error) {
    return queries().markRetry(id, heldVersion, attempts, availableAt, error);
  }

  @Override
  public boolean markFailed(String id, long heldVersion, int attempts, String error) {
    return queries().markFailed(id, heldVersion, attempts, error);
  }

  @Override
  public boolean release(String id, boolean retry, long now) {
    return queries().release(id, retry, now);
  }

  @Override
  public Optional<OutboxRow> find(String id) {
    return queries().find(id);
  }

  @Override
  public List<OutboxRow> list(OutboxStatus status, int limit) {
    return queries().list(status, limit);
  }

  @Override
  public long count(OutboxStatus status) {
    return queries().count(status);
  }

  @Override
  public Optional<Long> oldestPendingCreatedAt() {
    return queries().oldestPendingCreatedAt();
  }

  @Override
  public int purgeSettled(long settledBefore, int limit) {
    return queries().purgeSettled(settledBefore, limit);
  }
}
