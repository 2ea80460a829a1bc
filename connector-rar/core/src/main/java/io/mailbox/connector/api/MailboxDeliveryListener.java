package io.mailbox.connector.api;

/**
 * The manual-ack message listener: an MDB implementing it (with activation property {@code
 * manualAck = true}) receives each message under a lease and settles it itself ({@code
 * delivery.ack()}, {@code delivery.settle(Disposition.UNHANDLED)}, ...). One that returns without
 * settling keeps the lease until it expires, then the message is handed out again. An exception
 * settles an unsettled delivery as {@link Disposition#of(Throwable)} says.
 */
public interface MailboxDeliveryListener {
  void onDelivery(Delivery delivery);
}
