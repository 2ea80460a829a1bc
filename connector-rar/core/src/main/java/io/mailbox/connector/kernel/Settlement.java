package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.CustomDispositions;
import io.mailbox.connector.spi.Transport;

/**
 * What a disposition does to a handed-out copy, the same for a fetch and a broadcast: handled → the
 * transport acknowledges it; unhandled → back to its queue with a fresh attempt count (its round
 * carries on); discard → given up ({@link DeadLetters}); a transport's own disposition → the
 * transport carries it out.
 */
final class Settlement {
  private final Transport transport;
  private final DeadLetters deadLetters;
  private final TrafficCounters traffic;

  Settlement(Transport transport, DeadLetters deadLetters, TrafficCounters traffic) {
    this.transport = transport;
    this.deadLetters = deadLetters;
    this.traffic = traffic;
  }

  void apply(MailAddress address, MailMessage copy, Disposition disposition) {
    if (disposition.equals(Disposition.HANDLED)) {
      acknowledge(address, copy);
    } else if (disposition.equals(Disposition.UNHANDLED)) {
      requeue(address, copy);
    } else if (disposition.equals(Disposition.DISCARD)) {
      giveUp(
          address,
          copy,
          "consumer-nack",
          SystemHeaders.intHeader(copy, SystemHeaders.ATTEMPT, 1),
          null);
    } else if (transport instanceof CustomDispositions custom) {
      // The capability guard let it through: the transport declared it.
      custom.applyDisposition(address, copy, disposition);
    }
  }

  void acknowledge(MailAddress address, MailMessage copy) {
    transport.acknowledge(address, copy);
    traffic.of(address).acknowledged();
  }

  void requeue(MailAddress address, MailMessage copy) {
    // The attempt counter restarts once the message is back in the queue; the round carries on.
    MailMessage queued =
        copy.toBuilder()
            .removeHeader(SystemHeaders.ATTEMPT)
            .removeHeader(SystemHeaders.MAX_ATTEMPTS)
            .build();
    transport.requeue(address, queued);
    traffic.of(address).retried();
  }

  void giveUp(MailAddress address, MailMessage copy, String reason, int attempts, Throwable cause) {
    deadLetters.giveUp(address, copy, reason, attempts, cause);
  }
}
