package io.mailbox.examples.orders;

import io.mailbox.ejb.event.IntegrationEventEnvelope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import java.util.logging.Logger;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Takes an order's notes ({@code orders.noted.v1}, relayed from the outbox after the order's placed
 * event). A real shop would attach them to the order's history; the example only checks them, so a
 * malformed or foreign event fails here and is dead-lettered by the channel. What the notes show is
 * the relay's promise: an order's events are published in the order they were written, whichever
 * server relays them (the two-instance test checks it on the outbox table).
 */
@ApplicationScoped
public class OrderNotes {
  private static final Logger LOG = Logger.getLogger(OrderNotes.class.getName());

  @Incoming("order-notes")
  public void take(String envelopeJson) {
    JsonObject note = Events.ORDER_NOTED.accept(IntegrationEventEnvelope.parse(envelopeJson));
    LOG.fine(() -> "Order " + note.getString("orderId") + " has a note");
  }
}
