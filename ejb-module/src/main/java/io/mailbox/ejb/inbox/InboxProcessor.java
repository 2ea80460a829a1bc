package io.mailbox.ejb.inbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.HandlerNotReady;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.ejb.event.FailureText;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.ejb.event.IntegrationEventRejectedException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The inbox's decision for one delivery (plain Java over {@link InboxTransactions}):
 *
 * <ol>
 *   <li>ONE transaction looks for the marker of (consumer, topic, envelope id): there → {@link
 *       InboxOutcome#DUPLICATE}, nothing runs; otherwise it creates the marker first, runs the
 *       handler, commits → {@link InboxOutcome#PROCESSED};
 *   <li>after any failure the marker is read again: present means a concurrent delivery won the
 *       race → duplicate; absent means the handler failed: a rejection (type, version, parse) parks
 *       at once; otherwise the failure is counted outside the rolled-back transaction and, at
 *       {@code maxAttempts}, the delivery is parked; below it the failure is rethrown for
 *       redelivery.
 * </ol>
 *
 * An envelope id longer than 128 characters is parked at once (MBX-3004). When the inbox's own
 * store fails, the delivery is handed back for redelivery with the handler's error (the store's
 * attached as suppressed): a store outage never gets a delivery discarded.
 */
public final class InboxProcessor {
  private static final Logger LOG = Logger.getLogger(InboxProcessor.class.getName());
  static final int MAX_PARKED_ENVELOPE_CHARS = 262_144;

  /** The marker's {@code ENVELOPE_ID} column; a longer id is parked (MBX-3004). */
  static final int MAX_ENVELOPE_ID_CHARS = 128;

  private final InboxTransactions transactions;
  private final Clock clock;
  private final int maxAttempts;

  /**
   * @param maxAttempts failures before a delivery is parked; 0 leaves every failure to the
   *     transport
   * @throws MailboxException {@code MBX-1008} when {@code maxAttempts} is negative (it would park
   *     every failure at once)
   */
  public InboxProcessor(InboxTransactions transactions, Clock clock, int maxAttempts) {
    if (maxAttempts < 0) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY,
          "mailbox.inbox.max-attempts must be 0 (leave failures to the transport) or more, was "
              + maxAttempts
              + "; fix the setting.");
    }
    this.transactions = transactions;
    this.clock = clock;
    this.maxAttempts = maxAttempts;
  }

  /**
   * Processes one delivered envelope for {@code consumer}, source unknown: a parked delivery can
   * then only be discarded, not retried. Prefer the overload with the source address.
   *
   * @throws IntegrationEventRejectedException a malformed envelope (nothing to key a marker on)
   * @throws InboxFailureException the handler failed and attempts remain: redeliver it
   */
  public <T> InboxOutcome process(
      String consumer,
      IntegrationEventDefinition<T> definition,
      String envelopeJson,
      InboxHandler<T> handler) {
    return process(consumer, definition, envelopeJson, null, handler);
  }

  /**
   * Processes one delivered envelope for {@code consumer} that came from {@code sourceAddress},
   * which the marker records so that an operator's release → retry re-posts it there.
   *
   * @param sourceAddress the address the delivery was taken from, or {@code null} when unknown
   * @throws IntegrationEventRejectedException a malformed envelope (nothing to key a marker on)
   * @throws InboxFailureException the handler failed and attempts remain, or the inbox's own store
   *     failed: redeliver it
   * @throws io.mailbox.connector.api.MailboxException {@code sourceAddress} is not an address
   */
  public <T> InboxOutcome process(
      String consumer,
      IntegrationEventDefinition<T> definition,
      String envelopeJson,
      String sourceAddress,
      InboxHandler<T> handler) {
    String source = sourceAddress == null ? null : MailAddress.parse(sourceAddress).toString();
    IntegrationEventEnvelope envelope = IntegrationEventEnvelope.parse(envelopeJson);
    String topic = definition.topic();
    String id = markerId(consumer, topic, envelope.id());
    InboxRow marker =
        new InboxRow(
            id,
            consumer,
            topic,
            shortened(envelope.id()),
            InboxStatus.PROCESSED,
            0,
            clock.millis(),
            null,
            null,
            source);
    if (envelope.id().length() > MAX_ENVELOPE_ID_CHARS) {
      try {
        if (transactions.find(id).isPresent()) {
          return InboxOutcome.DUPLICATE;
        }
        // The marker's ENVELOPE_ID column holds 128 characters, so the marker insert would fail
        // on every delivery: parked at once instead, keyed like any other (the hash of the full
        // id) and shown shortened, so it is visible and redeliveries are skipped.
        return park(
            marker,
            envelopeJson,
            0,
            ErrorCode.INBOX_ENVELOPE_ID_TOO_LONG.code()
                + " The envelope id has "
                + envelope.id().length()
                + " characters; the inbox keys at most "
                + MAX_ENVELOPE_ID_CHARS
                + ". Parked without running the handler: discard it and ask the producer for"
                + " shorter ids.");
      } catch (RuntimeException storeFailure) {
        // Nothing ran: a store outage is "not now", never a reason to discard the delivery.
        throw new InboxFailureException(consumer, topic, storeFailure);
      }
    }
    // Whether the handler was reached: a failure before it (the store, the marker's insert) is "not
    // now" and counts no attempt.
    AtomicBoolean handlerReached = new AtomicBoolean();
    try {
      // The marker is looked for in the handler's own transaction (one transaction per first
      // delivery): there, a redelivery is a duplicate and nothing runs.
      return transactions.runWithMarker(
              marker,
              () -> {
                handlerReached.set(true);
                handler.handle(definition.accept(envelope), envelope);
              })
          ? InboxOutcome.PROCESSED
          : InboxOutcome.DUPLICATE;
    } catch (Exception failure) {
      try {
        return settleFailure(marker, envelopeJson, failure, handlerReached.get());
      } catch (InboxFailureException redeliver) {
        throw redeliver;
      } catch (RuntimeException storeFailure) {
        // The store failed while settling (re-read, count or park): the handler's error is kept
        // and the delivery comes back, rather than the store's error getting it discarded.
        InboxFailureException redeliver = new InboxFailureException(consumer, topic, failure);
        redeliver.addSuppressed(storeFailure);
        throw redeliver;
      }
    }
  }

  /**
   * After a failed handler transaction: a duplicate, a park, or (attempts left) a redelivery.
   *
   * @throws InboxFailureException redeliver
   * @throws RuntimeException the store failed
   */
  private InboxOutcome settleFailure(
      InboxRow marker, String envelopeJson, Exception failure, boolean handlerReached) {
    if (transactions.find(marker.id()).isPresent()) {
      return InboxOutcome.DUPLICATE; // another delivery committed the marker first
    }
    if (!handlerReached || HandlerNotReady.is(failure)) {
      // The handler never ran (the store failed before it: the look-up or the marker's insert),
      // or the container refused the call (starting, or stopping: "Attempt to invoke when
      // container is in STOPPED"): it is "not now" and counts no attempt — five graceful restarts
      // or store hiccups must not park a healthy delivery.
      throw new InboxFailureException(marker.consumer(), marker.topic(), failure);
    }
    String error = FailureText.of(failure);
    if (failure instanceof IntegrationEventRejectedException) {
      return park(marker, envelopeJson, 1, error);
    }
    if (maxAttempts == 0) {
      throw new InboxFailureException(marker.consumer(), marker.topic(), failure);
    }
    int attempts =
        transactions.recordFailure(
            new InboxRow(
                marker.id() + ":f",
                marker.consumer(),
                marker.topic(),
                marker.envelopeId(),
                InboxStatus.FAILURES,
                0,
                clock.millis(),
                null,
                null,
                null),
            error);
    if (attempts >= maxAttempts) {
      return park(marker, envelopeJson, attempts, error);
    }
    throw new InboxFailureException(marker.consumer(), marker.topic(), failure);
  }

  /** The id as the marker shows it: whole up to 128 characters, else cut with its length. */
  static String shortened(String envelopeId) {
    if (envelopeId.length() <= MAX_ENVELOPE_ID_CHARS) {
      return envelopeId;
    }
    return envelopeId.substring(0, 100) + "...(" + envelopeId.length() + " chars)";
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
            kept,
            marker.sourceAddress());
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

  /**
   * SHA-256 of (consumer, topic, envelope id), hex: any id a producer sent keys safely. Each field
   * is hashed as its UTF-16 length (4 bytes) followed by its UTF-16 code units, so two different
   * triples never hash the same input, whatever characters (line breaks, lone surrogates) they
   * hold. (The first scheme joined the fields with '\n', so ("a\nb", "c") and ("a", "b\nc") shared
   * a marker; markers it wrote keep their old ids: docs/outbox.md, "Marker ids".)
   */
  public static String markerId(String consumer, String topic, String envelopeId) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      for (String field : new String[] {consumer, topic, envelopeId}) {
        ByteBuffer encoded = ByteBuffer.allocate(4 + 2 * field.length());
        encoded.putInt(field.length());
        encoded.asCharBuffer().put(field);
        sha256.update(encoded.array());
      }
      return HexFormat.of().formatHex(sha256.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
