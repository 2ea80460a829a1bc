package io.mailbox.examples.orders.shipping;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxListener;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.examples.orders.OrderDesk;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import java.util.logging.Logger;

/** Shipping's mailbox: one MDB call per shipping request; returning settles it as handled. */
@MessageDriven(
    activationConfig = {
      @ActivationConfigProperty(
          propertyName = "address",
          propertyValue = OrderDesk.SHIPPING_ADDRESS),
      @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4")
    })
public class ShippingListener implements MailboxListener {
  private static final Logger LOG = Logger.getLogger(ShippingListener.class.getName());

  @EJB private ShippedOrders shipped;

  @Override
  public void onMessage(MailMessage message) {
    // A shipping.requested.v1 envelope, relayed from the outbox.
    String orderId =
        IntegrationEventEnvelope.parse(message.body()).data().asJsonObject().getString("orderId");
    if (shipped.courierDown()) {
      // Not retriable: the request is given up and dead-lettered; an operator replays it from the
      // console once the courier is back.
      throw new IllegalStateException("no courier available for order " + orderId);
    }
    shipped.add(orderId);
    LOG.info(() -> "Shipping received order " + orderId);
  }
}
