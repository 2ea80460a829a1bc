package io.mailbox.connector.api;

/**
 * The message listener interface of the adapter's inbound side: an MDB implementing it receives the
 * messages of the address named in its activation config ({@code address}).
 *
 * <p>Returning normally settles the delivery as handled. Throwing {@link
 * RetriableDeliveryException} puts the message back into its mailbox; any other exception discards
 * it, so one bad message is not retried forever.
 */
public interface MailboxListener {
  void onMessage(MailMessage message);
}
