package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.TraceHeaders;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.tracing.MessageTracing;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes integration events as outbox rows in the CALLER's JTA transaction (MANDATORY: without one
 * there is nothing to be atomic with, so the call is refused). The row commits or rolls back with
 * the business write; after a commit the relay is asked to sweep at once.
 *
 * <pre>{@code
 * @Transactional
 * public void place(Order order) {
 *   orders.persist(order);
 *   outbox.write(ORDER_PLACED, toJson(order), WriteOptions.none().withOrderingKey(order.id()));
 * }
 * }</pre>
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.MANDATORY)
public class Outbox {
  @PersistenceContext(unitName = "mailbox")
  private EntityManager em;

  @Resource private TransactionSynchronizationRegistry transactions;

  @EJB private OutboxRelayService relay;

  @Resource private ManagedExecutorService executor;

  private final OutboxConfig config = new OutboxConfig();

  /**
   * Writes one event.
   *
   * @return the envelope id (also the id of every message the relay publishes for it)
   * @throws OutboxEnvelopeTooLargeException over the size limit; the caller's transaction rolls
   *     back
   * @throws OutboxWriteRefusedException an envelope id, ordering key, tenant or address longer than
   *     its column (MBX-3007), refused before the row exists; the caller's transaction rolls back
   */
  public <T> String write(
      IntegrationEventDefinition<T> definition, JsonValue data, WriteOptions options) {
    return writeTo(config.addressFor(definition.topic()), definition, data, options);
  }

  /** Writes one event to be published to {@code address} (an outgoing channel's address). */
  public <T> String writeTo(
      String address,
      IntegrationEventDefinition<T> definition,
      JsonValue data,
      WriteOptions options) {
    OutboxRows rows =
        new OutboxRows(
            Clock.systemUTC(), config::addressFor, config.relaySettings().maxEnvelopeBytes());
    OutboxRecord record = rows.create(definition, data, traced(options), address);
    em.persist(record);
    // Written now, not at commit: a connection first taken while the transaction completes is not
    // enlisted in it on Payara (measured: the order, its outbox rows and an inbox marker then each
    // auto-committed on their own, so a kill -9 mid-commit kept some and lost others). Taken here,
    // the connection is enlisted, and the caller's own writes share it at commit.
    em.flush();
    requestSweepAfterCommit();
    return record.id();
  }

  /**
   * The options with the writer's trace context (docs/observability.md, "Traces"): the row keeps
   * it, so the relay's publish, later and on another thread, continues the writer's trace. A
   * context the caller set itself is kept.
   */
  private static WriteOptions traced(WriteOptions options) {
    Map<String, String> trace = MessageTracing.lookup().currentContext();
    if (trace.isEmpty() || options.headers().containsKey(TraceHeaders.TRACEPARENT)) {
      return options;
    }
    Map<String, String> headers = new TreeMap<>(trace);
    headers.putAll(options.headers());
    return options.withHeaders(headers);
  }

  private void requestSweepAfterCommit() {
    Object key = Outbox.class;
    if (transactions.getResource(key) == null) {
      transactions.putResource(key, Boolean.TRUE);
      transactions.registerInterposedSynchronization(
          new Synchronization() {
            @Override
            public void beforeCompletion() {}

            @Override
            public void afterCompletion(int status) {
              if (status == Status.STATUS_COMMITTED) {
                // Not called here: an EJB call inside a completed XA transaction's callback fails
                // ("Invalid transaction passed to resume()"); the managed executor runs it after.
                executor.execute(relay::dispatch);
              }
            }
          });
    }
  }
}
