package io.mailbox.connector.kernel;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Ids;
import io.mailbox.connector.spi.Transport;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Giving a copy up: the transport stops redelivering it, and it is archived to its dead-letter
 * topic with reason, attempts, round, error, source and depth — or parked at its own address when
 * the chain is at its cap, or dropped with a warning when dead letters are off. The copy's removal
 * and its replacement go through {@link Transport#replaceGivenUp}, so a transport that can do both
 * at once never loses the copy between them.
 */
final class DeadLetters {
  private static final Logger LOG = Logger.getLogger(DeadLetters.class.getName());

  private final Transport transport;
  private final TrafficCounters traffic;
  private volatile DeadLetterPolicy policy;

  DeadLetters(Transport transport, TrafficCounters traffic) {
    this.transport = transport;
    this.traffic = traffic;
  }

  void enable(DeadLetterPolicy policy) {
    this.policy = policy;
  }

  void disable() {
    this.policy = null;
  }

  Optional<DeadLetterPolicy> policy() {
    return Optional.ofNullable(policy);
  }

  void giveUp(MailAddress topic, MailMessage copy, String reason, int attempts, Throwable failure) {
    DeadLetterPolicy current = policy;
    String error = DeliveryChain.describe(failure);
    if (current == null) {
      transport.replaceGivenUp(topic, copy, () -> {});
      traffic.of(topic).dropped();
      LOG.warning(
          () ->
              "Gave up on "
                  + copy
                  + " at "
                  + topic
                  + " ("
                  + reason
                  + "); no dead-letter queue, dropped. "
                  + error);
      return;
    }
    int depth = SystemHeaders.intHeader(copy, SystemHeaders.DEAD_LETTER_DEPTH, 0) + 1;
    MailMessage.Builder record =
        copy.toBuilder()
            .removeHeader(SystemHeaders.ATTEMPT)
            .removeHeader(SystemHeaders.MAX_ATTEMPTS)
            .header(SystemHeaders.DEAD_LETTER_REASON, reason)
            .header(SystemHeaders.DEAD_LETTER_ATTEMPTS, Integer.toString(attempts))
            .header(
                SystemHeaders.DEAD_LETTER_ROUND,
                Integer.toString(SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1)))
            .header(SystemHeaders.DEAD_LETTER_ERROR, error)
            .header(SystemHeaders.DEAD_LETTER_TOPIC, topic.toString());
    MailAddress target = current.deadLetterTopic(topic);
    if (depth > current.maxNesting() || target.equals(topic)) {
      MailMessage parked = record.header(SystemHeaders.DEAD_LETTER_TERMINAL, "true").build();
      LOG.severe(
          () ->
              "Parked "
                  + parked
                  + " at "
                  + topic
                  + " ("
                  + reason
                  + "): the dead-letter chain is at its cap");
      transport.replaceGivenUp(topic, copy, () -> transport.park(topic, parked));
      traffic.of(topic).parked();
      return;
    }
    MailMessage archived =
        record
            .header(SystemHeaders.DEAD_LETTER_DEPTH, Integer.toString(depth))
            .removeHeader(SystemHeaders.ROUND)
            .header(SystemHeaders.SEND_ID, Ids.next())
            .header(SystemHeaders.SENT_AT, transport.clock().instant().toString())
            .build();
    transport.replaceGivenUp(topic, copy, () -> transport.send(target, archived));
    traffic.of(topic).deadLettered();
  }
}
