package io.mailbox.examples.orders.billing;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxListener;
import io.mailbox.examples.orders.OrderDesk;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.logging.Logger;

/** Billing's mailbox: one MDB call per "order placed" letter. */
@MessageDriven(
    activationConfig = {
      @ActivationConfigProperty(propertyName = "address", propertyValue = OrderDesk.BILLING_ADDRESS)
    })
public class BillingListener implements MailboxListener {
  private static final Logger LOG = Logger.getLogger(BillingListener.class.getName());

  @EJB private BilledOrders billed;

  @Override
  public void onMessage(MailMessage message) {
    JsonObject order;
    try (var reader = Json.createReader(new StringReader(message.body()))) {
      order = reader.readObject();
    }
    String orderId = order.getString("orderId");
    billed.add(orderId);
    LOG.info(() -> "Billing received order " + orderId);
  }
}
