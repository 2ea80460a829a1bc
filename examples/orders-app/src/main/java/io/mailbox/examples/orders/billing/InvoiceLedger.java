package io.mailbox.examples.orders.billing;

import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.ejb.inbox.Inboxed;
import io.mailbox.examples.orders.Events;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The sink: writes an invoice at most once per event. {@link Inboxed} runs it through the consumer
 * inbox "billing-ledger" (see microprofile-config.properties): a redelivered request is
 * acknowledged without calling it, and its write joins the inbox marker's transaction.
 */
@ApplicationScoped
public class InvoiceLedger {
  @Inject InvoiceWriter invoices;
  private final Clock clock = Clock.systemUTC();

  @Incoming("invoices-in")
  @Inboxed
  public void record(String envelopeJson) {
    IntegrationEventEnvelope envelope = IntegrationEventEnvelope.parse(envelopeJson);
    JsonObject order = Events.INVOICE_REQUESTED.accept(envelope);
    invoices.write(
        new Invoice(
            UUID.randomUUID().toString(),
            order.getString("orderId"),
            envelope.id(),
            clock.instant()));
  }
}
