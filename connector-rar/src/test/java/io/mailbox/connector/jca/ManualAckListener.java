package io.mailbox.connector.jca;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailboxDeliveryListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;

/**
 * A manual-ack MDB: gives a message marked "again" back once, then handles everything. Records each
 * delivery it settled as handled.
 */
@MessageDriven(
    activationConfig = {
      @ActivationConfigProperty(
          propertyName = "address",
          propertyValue = ManualAckListener.ADDRESS),
      @ActivationConfigProperty(propertyName = "manualAck", propertyValue = "true"),
      @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "2"),
      @ActivationConfigProperty(propertyName = "pollIntervalMillis", propertyValue = "20")
    })
public class ManualAckListener implements MailboxDeliveryListener {
  static final String ADDRESS = "mem:it@test/manual";

  @EJB private InboxRecorder recorder;

  @Override
  public void onDelivery(Delivery delivery) {
    boolean firstRoundOfAgain =
        delivery.message().body().equals("again")
            && delivery.message().header("mbx-round").orElse("1").equals("1");
    if (firstRoundOfAgain) {
      delivery.settle(Disposition.UNHANDLED);
      return;
    }
    if (delivery.ack()) {
      recorder.record(delivery.message());
    }
  }
}
