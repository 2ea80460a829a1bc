package io.mailbox.examples.orders.billing;

import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.examples.orders.Events;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

/**
 * A processor: each {@code orders.placed.v1} event (relayed from the outbox) becomes a {@code
 * billing.invoice-requested.v1} event caused by it. A malformed or foreign event fails here and is
 * dead-lettered by the channel.
 */
@ApplicationScoped
public class InvoicePreparation {

  @Incoming("placed-orders")
  @Outgoing("invoices")
  public String prepare(String envelopeJson) {
    IntegrationEventEnvelope placed = IntegrationEventEnvelope.parse(envelopeJson);
    JsonObject order = Events.ORDER_PLACED.accept(placed);
    return IntegrationEventEnvelope.of(Events.INVOICE_REQUESTED, order)
        .id("invoice-" + placed.id())
        .causedBy(placed)
        .build()
        .toJson();
  }
}
