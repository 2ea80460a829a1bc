package io.mailbox.ejb.inbox;

import io.mailbox.ejb.event.IntegrationEventDefinition;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.time.Clock;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The consumer inbox for application code, typically an {@code @Incoming} method:
 *
 * <pre>{@code
 * @Incoming("placed-orders")
 * public void onPlaced(String envelope) {
 *   inbox.process("billing", ORDER_PLACED, envelope, "jdbc:billing@shop/orders",
 *       (order, event) -> invoices.persist(...));
 * }
 * }</pre>
 *
 * Runs outside the caller's transaction (the handler gets a new one, with the marker). Every
 * returned outcome means "acknowledge"; {@link InboxFailureException} (retriable) means
 * "redeliver". Failures before parking: {@code mailbox.inbox.max-attempts} (default 5; 0 = leave it
 * to the transport).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Inbox {
  static final String MAX_ATTEMPTS = "mailbox.inbox.max-attempts";

  @EJB private JtaInboxTransactions transactions;

  // Read once per bean instance, not per delivery (a negative value is refused by InboxProcessor,
  // MBX-1008).
  private int maxAttempts;

  @PostConstruct
  void readSettings() {
    maxAttempts =
        ConfigProvider.getConfig().getOptionalValue(MAX_ATTEMPTS, Integer.class).orElse(5);
  }

  /**
   * Processes a delivery whose source is unknown: should it be parked, an operator can discard it
   * but not retry it (MBX-3005). Prefer {@link #process(String, IntegrationEventDefinition, String,
   * String, InboxHandler)}.
   */
  public <T> InboxOutcome process(
      String consumer,
      IntegrationEventDefinition<T> definition,
      String envelopeJson,
      InboxHandler<T> handler) {
    return process(consumer, definition, envelopeJson, null, handler);
  }

  /**
   * Processes a delivery taken from {@code sourceAddress} (the channel's or MDB's address), which
   * the marker records: an operator's release → retry of a parked delivery re-posts it there.
   *
   * @param sourceAddress where the delivery came from; {@code null} when unknown
   */
  public <T> InboxOutcome process(
      String consumer,
      IntegrationEventDefinition<T> definition,
      String envelopeJson,
      String sourceAddress,
      InboxHandler<T> handler) {
    return new InboxProcessor(transactions, Clock.systemUTC(), maxAttempts)
        .process(consumer, definition, envelopeJson, sourceAddress, handler);
  }
}
