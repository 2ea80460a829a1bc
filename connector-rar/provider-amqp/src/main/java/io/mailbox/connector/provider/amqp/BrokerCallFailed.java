package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ShutdownSignalException;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;

/** A broker call failed; carries whether it was a 404 (the queue does not exist). */
final class BrokerCallFailed extends MailboxException {
  private static final long serialVersionUID = 1L;
  final boolean notFound;
  final boolean inequivalentDeliveryLimit;

  BrokerCallFailed(Exception cause) {
    super(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "RabbitMQ refused or did not answer a call (" + cause.getClass().getSimpleName() + ").",
        cause);
    this.notFound = describes404(cause);
    this.inequivalentDeliveryLimit = refusesDeliveryLimit(cause);
  }

  /** A queue made earlier with another {@code x-delivery-limit} (or none): 406 on redeclare. */
  private static boolean refusesDeliveryLimit(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ShutdownSignalException signal
          && signal.getReason() instanceof AMQP.Channel.Close close
          && close.getReplyCode() == AMQP.PRECONDITION_FAILED
          && close.getReplyText() != null
          && close.getReplyText().contains("x-delivery-limit")) {
        return true;
      }
    }
    return false;
  }

  private static boolean describes404(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ShutdownSignalException signal
          && signal.getReason() instanceof AMQP.Channel.Close close
          && close.getReplyCode() == AMQP.NOT_FOUND) {
        return true;
      }
    }
    return false;
  }
}
