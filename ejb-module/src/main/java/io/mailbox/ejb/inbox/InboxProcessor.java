package io.mailbox.ejb.inbox;

import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.ejb.event.IntegrationEventRejectedException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.logging.Logger;

/**
 * The inbox's decision for one delivery (plain Java over {@link InboxTransactions}):
 *
 * <ol>
 *   <li>a marker for (consumer, topic, envelope id) exists → {@link InboxOutcome#DUPLICATE};
 *   <li>otherwise ONE transaction creates the marker first, runs the handler, commits → {@link
 *       InboxOutcome#PROCESSED};
 *   <li>after any failure the marker is read again: present means a concurrent delivery won the
 *       race → duplicate; absent means the handler failed: a rejection (type, version, parse) parks
 *       at once; otherwise the failure is counted outside the rolled-back transaction and, at
 *       {@code maxAttempts}, the delivery is parked; below it the failure is rethrown for
 *       redelivery.
 * </ol>
 */
public final class InboxProcessor {
  private static final Logger LOG = Logger.getLogger(InboxProcessor.class.getName());
  static final int MAX_PARKED_ENVELOPE_CHARS = 262_144;

  private final InboxTransactions transactions;
  private final Clock clock;
  private final int maxAttempts;

  /**
   * @param maxAttempts failures before a delivery is parked; 0 leaves every failure to the
   *     transport
   */
  public InboxProcessor(InboxTransactions transactions, Clock clock, int maxAttempts) {
    this.transactions = transactions;
    this.clock = clock;
    this.maxAttempts = maxAttempts;
  }

  /**
   * Processes one delivered envelope for {@code consumer}.
   *
   * @throws IntegrationEventRejectedException a malformed envelope (nothing to key a marker on)
   * @throws InboxFailureException the handler failed and attempts remain: redeliver it
   */
  public <T> InboxOutcome process(
      String consumer,
      IntegrationEventDefinition<T> definition,
      String envelopeJson,
      InboxHandler<T> handler) {
    IntegrationEventEnvelope envelope = IntegrationEventEnvelope.parse(envelopeJson);
    String topic = definition.topic();
    String id = markerId(consumer, topic, envelope.id());
    if (transactions.find(id).isPresent()) {
      return InboxOutcome.DUPLICATE;
    }
    InboxRow marker =
        new InboxRow(
            id,
            consumer,
            topic,
            envelope.id(),
            InboxStatus.PROCESSED,
            0,
            clock.millis(),
            null,
            null);
    try {
      transactions.runWithMarker(
          marker, () -> handler.handle(definition.accept(envelope), envelope));
      return InboxOutcome.PROCESSED;
    } catch (Exception failure) {
      if (transactions.find(id).isPresent()) {
        return InboxOutcome.DUPLICATE; // another delivery committed the marker first
      }
      String error = bounded(failure);
      if (failure instanceof IntegrationEventRejectedException) {
        return park(marker, envelopeJson, 1, error);
      }
      if (maxAttempts == 0) {
        throw new InboxFailureException(consumer, topic, failure);
      }
      int attempts =
          transactions.recordFailure(
              new InboxRow(
                  id + ":f",
                  consumer,
                  topic,
                  envelope.id(),
                  InboxStatus.FAILURES,
                  0,
                  clock.millis(),
                  null,
                  null),
              error);
      if (attempts >= maxAttempts) {
        return park(marker, envelopeJson, attempts, error);
      }
      throw new InboxFailureException(consumer, topic, failure);
    }
  }

  private InboxOutcome park(InboxRow marker, String envelopeJson, int attempts, String error) {
    String kept = envelopeJson.length() <= MAX_PARKED_ENVELOPE_CHARS ? envelopeJson : null;
    InboxRow parked =
        new InboxRow(
            marker.id(),
            marker.consumer(),
            marker.topic(),
            marker.envelopeId(),
            InboxStatus.PARKED,
            attempts,
            clock.millis(),
            error,
            kept);
    if (!transactions.park(parked)) {
      return InboxOutcome.DUPLICATE;
    }
    LOG.warning(
        () ->
            "Inbox "
                + marker.consumer()
                + " parked event "
                + marker.envelopeId()
                + " of "
                + marker.topic()
                + ": "
                + error);
    return InboxOutcome.PARKED;
  }

  /** SHA-256 of (consumer, topic, envelope id), hex: any id a producer sent keys safely. */
  public static String markerId(String consumer, String topic, String envelopeId) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  (consumer + '\n' + topic + '\n' + envelopeId).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  static String bounded(Throwable failure) {
    String text =
        failure.getClass().getName()
            + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    text = text.replaceAll("\\p{Cntrl}", " ");
    return text.length() <= 1024 ? text : text.substring(0, 1024);
  }
}
