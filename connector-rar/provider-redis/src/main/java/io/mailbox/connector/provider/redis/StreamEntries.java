package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.ForeignHeaders;
import io.mailbox.connector.spi.Ids;
import io.mailbox.connector.spi.SentAt;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import redis.clients.jedis.StreamEntryID;

/**
 * Messages both ways between the kernel and stream entries.
 *
 * <p>Out: the field {@value #BODY} holds the body; every header is a field of its name (a header
 * named {@code body} is written as {@value #BODY_HEADER}), the sender's id is {@value #MESSAGE_ID},
 * the sender address {@code mbx-from}, meta {@code mbx-meta-<name>}, and {@value #PRODUCER} =
 * {@code mailbox} marks entries we wrote. The ordering key and de-duplication id are the headers
 * {@code ordering-key} and {@code deduplication-id}, so fields too. A dead-letter record also
 * carries the source entry's id as {@value #SOURCE_ID}; its delivery count is {@code
 * mbx-dead-letter-round}.
 *
 * <p>In: an entry of ours keeps all of that. A foreign entry (a plain XADD) gets its entry id as
 * its message id, a send id made from its stream and entry id (the same at every delivery), its
 * entry time as its send time, and only headers that are safe ({@link ForeignHeaders}); the rest is
 * dropped and counted, never echoed. Every copy carries its entry id as {@value #ENTRY_ID}, and the
 * deliveries Redis counted become its round. An entry without {@value #BODY} cannot be read.
 */
final class StreamEntries {
  static final String BODY = "body";
  static final String BODY_HEADER = "mbx-header-body";
  static final String MESSAGE_ID = "mbx-message-id";
  static final String PRODUCER = "mbx-producer";
  static final String ENTRY_ID = "mbx-entry-id";
  static final String SOURCE_ID = "mbx-source-id";
  private static final String OURS = "mailbox";

  private StreamEntries() {}

  /**
   * A read entry: the copy, how many fields were dropped, and whether it had no body (then its copy
   * has an empty one and is given up at once: no delivery can make it readable).
   */
  record Read(MailMessage copy, int droppedFields, boolean missingBody) {}

  /** The fields of {@code copy}; {@code deadLetter} adds the source entry's id. */
  static Map<String, String> fields(MailMessage copy, boolean deadLetter) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put(BODY, copy.body());
    copy.headers()
        .forEach((name, value) -> fields.put(name.equals(BODY) ? BODY_HEADER : name, value));
    fields.put(MESSAGE_ID, copy.id());
    copy.from().ifPresent(from -> fields.put(ForeignHeaders.FROM, from.toString()));
    copy.meta().forEach((name, value) -> fields.put(ForeignHeaders.META_PREFIX + name, value));
    if (deadLetter) {
      copy.header(ENTRY_ID).ifPresent(source -> fields.put(SOURCE_ID, source));
    }
    fields.put(PRODUCER, OURS);
    return fields;
  }

  /**
   * The copy of entry {@code id} of stream {@code key}, delivered {@code deliveries} times (this
   * delivery included).
   */
  static Read read(
      MailAddress address,
      String key,
      StreamEntryID id,
      Map<String, String> fields,
      long deliveries) {
    String body = fields.get(BODY);
    String marker = fields.get(PRODUCER);
    String sendId = fields.get(SystemHeaders.SEND_ID);
    boolean ours = OURS.equals(marker) && sendId != null && !sendId.isBlank();
    MailMessage.Builder copy = MailMessage.to(address).body(body == null ? "" : body);
    int dropped = 0;
    String messageId = null;
    for (Map.Entry<String, String> field : fields.entrySet()) {
      String name = field.getKey();
      String value = field.getValue() == null ? null : ForeignHeaders.plainText(field.getValue());
      if (name.equals(BODY) || name.equals(ENTRY_ID) || (ours && name.equals(PRODUCER))) {
        continue;
      }
      if (ours && name.equals(MESSAGE_ID)) {
        messageId = value;
      } else if (ours && name.equals(BODY_HEADER)) {
        copy.header(BODY, value);
      } else if (!ForeignHeaders.carry(copy, name, value, ours)) {
        dropped++;
      }
    }
    if (!ours) {
      copy.header(SystemHeaders.SEND_ID, foreignSendId(key, id));
      copy.header(SystemHeaders.SENT_AT, SentAt.format(Instant.ofEpochMilli(id.getTime())));
      messageId = id.toString();
    }
    if (messageId != null && !messageId.isBlank()) {
      copy.id(messageId);
    }
    copy.header(ENTRY_ID, id.toString());
    if (deliveries > 1) {
      copy.header(SystemHeaders.ROUND, Long.toString(deliveries - 1));
    }
    return new Read(copy.build(), dropped, body == null);
  }

  /** The same at every delivery of the entry, and never the same for two entries. */
  private static String foreignSendId(String key, StreamEntryID id) {
    return Ids.stable(key, id.toString());
  }
}
