package io.mailbox.examples.orders.shipping;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxListener;
import io.mailbox.examples.orders.OrderDesk;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.json.Json;
import java.io.StringReader;
import java.util.logging.Logger;

/** Shipping's mailbox: one MDB call per "order placed" letter; returning settles it as handled. */
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
    String orderId;
    try (var reader = Json.createReader(new StringReader(message.body()))) {
      orderId = reader.readObject().getString("orderId");
    }
    shipped.add(orderId);
    LOG.info(() -> "Shipping received order " + orderId);
  }
}
