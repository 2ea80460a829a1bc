package io.mailbox.examples.orders.shipping;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxListener;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.ejb.inbox.Inbox;
import io.mailbox.examples.orders.Events;
import io.mailbox.examples.orders.OrderDesk;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import java.time.Clock;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Shipping's mailbox: one MDB call per shipping request; returning settles it as handled. A request
 * can arrive twice (the relay publishes at least once; a crash between shipping and the
 * acknowledgement redelivers it), so the shipment is written through the consumer inbox "shipping":
 * one shipment per request, however often it comes.
 */
@MessageDriven(
    activationConfig = {
      @ActivationConfigProperty(
          propertyName = "address",
          propertyValue = OrderDesk.SHIPPING_ADDRESS),
      @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")
    })
public class ShippingListener implements MailboxListener {
  private static final Logger LOG = Logger.getLogger(ShippingListener.class.getName());
  static final String INBOX_CONSUMER = "shipping";

  private final Clock clock = Clock.systemUTC();

  @EJB private Courier courier;
  @EJB private Inbox inbox;
  @EJB private Shipments shipments;

  @Override
  public void onMessage(MailMessage message) {
    // A shipping.requested.v1 envelope, relayed from the outbox.
    IntegrationEventEnvelope envelope = IntegrationEventEnvelope.parse(message.body());
    String orderId = envelope.data().asJsonObject().getString("orderId");
    if (courier.courierDown()) {
      // Not retriable: the request is given up and dead-lettered; an operator replays it from the
      // console once the courier is back.
      throw new IllegalStateException("no courier available for order " + orderId);
    }
    inbox.process(
        INBOX_CONSUMER,
        Events.SHIPPING_REQUESTED,
        message.body(),
        message.to().toString(), // a parked request's release → retry re-posts it here
        (order, event) ->
            shipments.record(
                new Shipment(
                    UUID.randomUUID().toString(),
                    order.getString("orderId"),
                    event.id(),
                    clock.instant())));
    LOG.fine(() -> "Shipping received order " + orderId);
  }
}
