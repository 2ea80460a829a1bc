package io.mailbox.examples.orders.billing;

import io.mailbox.ejb.inbox.Inbox;
import io.mailbox.ejb.inbox.InboxOutcome;
import io.mailbox.examples.orders.Events;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.UUID;
import java.util.logging.Logger;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The sink: writes an invoice through the consumer inbox "billing-ledger", so a redelivered request
 * (the relay re-sending, the channel redelivering) never invoices twice. An inbox failure with
 * attempts left is retriable: the channel hands the message back.
 */
@ApplicationScoped
public class InvoiceLedger {
  static final String CONSUMER = "billing-ledger";
  private static final Logger LOG = Logger.getLogger(InvoiceLedger.class.getName());

  @EJB Inbox inbox;
  @Inject InvoiceWriter invoices;
  private final Clock clock = Clock.systemUTC();

  @Incoming("invoices-in")
  public void record(String envelopeJson) {
    InboxOutcome outcome =
        inbox.process(
            CONSUMER,
            Events.INVOICE_REQUESTED,
            envelopeJson,
            (order, envelope) ->
                invoices.write(
                    new Invoice(
                        UUID.randomUUID().toString(),
                        order.getString("orderId"),
                        envelope.id(),
                        clock.instant())));
    LOG.fine(() -> "Invoice request " + outcome);
  }
}
