package io.mailbox.connector.api;

/**
 * Writes a message as an outbox row in the caller's JTA transaction, to be published to an address
 * by the relay after commit. Implemented by the outbox (ejb-module) and bound at {@link
 * #JNDI_NAME}.
 *
 * <p>It is declared here, in the API every module can see, so that the channel connector reaches
 * the outbox without linking to the EJB module: in an EAR the channel connector sits in {@code
 * lib/}, and a {@code lib/} jar cannot see an EJB module's classes.
 */
public interface OutboxWriter {

  /** Where the outbox binds its writer, for every module of the application. */
  String JNDI_NAME = "java:app/mailbox/OutboxWriter";

  /**
   * Writes one event row; requires an active JTA transaction.
   *
   * @param address the address the relay publishes to
   * @param topic the event's topic, ending in {@code .v<version>} (e.g. {@code orders.placed.v1})
   * @param json the event data: a JSON text, or any other text (then stored as a JSON string)
   * @param envelopeId the envelope (and message) id to use, or null for a fresh one
   * @return the envelope id
   * @throws MailboxException with {@link ErrorCode#INVALID_ACTIVATION} when the topic has no
   *     version suffix
   */
  String write(String address, String topic, String json, String envelopeId);

  /**
   * As {@link #write(String, String, String, String)}, with the message's headers: {@value
   * PublishOptions#ORDERING_KEY} and {@value PublishOptions#DEDUPLICATION_ID} become the row's
   * options, the rest its caller headers, all published with every send of the row.
   *
   * @throws MailboxException with {@link ErrorCode#INVALID_MESSAGE} when the headers break the
   *     publish rules ({@link PublishOptions}); nothing is written
   */
  String write(
      String address,
      String topic,
      String json,
      String envelopeId,
      java.util.Map<String, String> headers);
}
