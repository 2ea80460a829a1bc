package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.ForeignHeaders;
import io.mailbox.connector.spi.Ids;
import io.mailbox.connector.spi.SentAt;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Messages both ways between the kernel and Kafka records.
 *
 * <p>Out: the value is the body as UTF-8; the key is the message's {@value #ORDERING_KEY} header
 * when it has one (same key, same partition, so their order is kept), else none; the timestamp is
 * the send time; every header becomes a UTF-8 record header, with the sender's id as {@value
 * #MESSAGE_ID}, the sender address as {@code mbx-from}, meta as {@code mbx-meta-<name>} and {@value
 * #PRODUCER} = {@code mailbox} to mark records we wrote.
 *
 * <p>In: a record of ours keeps all of that. A record from a foreign producer is identified by
 * where it is: its message id is {@code <topic>:<partition>:<offset>} and its send id a UUID made
 * from those (the same at every delivery, so a consumer inbox recognizes a redelivery, and two
 * records never share one — a record key is shared by every record of an entity, so it is not an
 * id); its key becomes its {@value #ORDERING_KEY} header (when at most 128 UTF-8 bytes), the
 * record's timestamp its send time; only headers that are safe ({@link ForeignHeaders}) and not
 * {@code mbx-} (ours to set) are kept; the rest is dropped and counted, never echoed.
 */
final class KafkaRecords {
  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(KafkaRecords.class.getName());

  /** The header whose value becomes the record key. */
  static final String ORDERING_KEY = "ordering-key";

  static final String MESSAGE_ID = "mbx-message-id";
  static final String PRODUCER = "mbx-producer";
  private static final String OURS = "mailbox";
  private static final byte[] OURS_BYTES = OURS.getBytes(StandardCharsets.UTF_8);

  private KafkaRecords() {}

  /** A received record: the copy, and how many foreign headers were dropped. */
  record Received(MailMessage copy, int droppedHeaders) {}

  static ProducerRecord<byte[], byte[]> record(String topic, MailMessage copy) {
    RecordHeaders headers = new RecordHeaders();
    copy.headers().forEach((name, value) -> headers.add(name, utf8(value)));
    headers.add(MESSAGE_ID, utf8(copy.id()));
    copy.from().ifPresent(from -> headers.add(ForeignHeaders.FROM, utf8(from.toString())));
    copy.meta()
        .forEach((name, value) -> headers.add(ForeignHeaders.META_PREFIX + name, utf8(value)));
    headers.add(PRODUCER, utf8(OURS));
    Long timestamp = copy.header(SystemHeaders.SENT_AT).map(KafkaRecords::epochMillis).orElse(null);
    byte[] key = copy.header(ORDERING_KEY).map(KafkaRecords::utf8).orElse(null);
    return new ProducerRecord<>(topic, null, timestamp, key, utf8(copy.body()), headers);
  }

  static Received read(MailAddress address, ConsumerRecord<byte[], byte[]> record) {
    boolean ours = isOurs(record);
    MailMessage.Builder copy = MailMessage.to(address).body(text(record.value()));
    int dropped = 0;
    String messageId = null;
    for (Header header : record.headers()) {
      String name = header.key();
      if (ours && name.equals(PRODUCER)) {
        continue;
      }
      String value = header.value() == null ? null : ForeignHeaders.plainText(header.value());
      if (ours && name.equals(MESSAGE_ID)) {
        messageId = value;
      } else if (!ForeignHeaders.carry(copy, name, value, ours)) {
        dropped++;
      }
    }
    if (!ours) {
      copy.header(SystemHeaders.SEND_ID, foreignKey(record));
      copy.header(SystemHeaders.SENT_AT, SentAt.format(Instant.ofEpochMilli(record.timestamp())));
      messageId = record.topic() + ":" + record.partition() + ":" + record.offset();
      String partitionKey = record.key() == null ? null : ForeignHeaders.plainText(record.key());
      if (partitionKey != null
          && !partitionKey.isBlank()
          && partitionKey.getBytes(StandardCharsets.UTF_8).length <= 128
          && record.headers().lastHeader(ORDERING_KEY) == null) { // its own header wins
        copy.header(ORDERING_KEY, partitionKey);
      }
    }
    if (messageId != null && !messageId.isBlank()) {
      copy.id(messageId);
    }
    return new Received(copy.build(), dropped);
  }

  /**
   * {@link #readSafely}, adding the headers dropped to {@code dropped} (logged at FINE: a foreign
   * producer's headers are counted, never shown).
   */
  static MailMessage readCounting(
      MailAddress address,
      ConsumerRecord<byte[], byte[]> record,
      java.util.concurrent.atomic.AtomicLong dropped) {
    Received received = readSafely(address, record);
    if (received.droppedHeaders() > 0) {
      dropped.addAndGet(received.droppedHeaders());
      LOG.fine(
          () ->
              "Dropped "
                  + received.droppedHeaders()
                  + " header(s) of a record at "
                  + address
                  + " that were not safe to carry (see kafka.droppedHeaders)");
    }
    return received.copy();
  }

  /** {@link #read}, or {@link #bare} for a record whose headers cannot be read. */
  static Received readSafely(MailAddress address, ConsumerRecord<byte[], byte[]> record) {
    try {
      return read(address, record);
    } catch (RuntimeException unreadable) {
      return bare(address, record);
    }
  }

  /**
   * What a record becomes when its headers cannot be read (a value our own types refuse): its body
   * under a fresh send id, every header dropped and counted — delivered, never the reader's end.
   */
  static Received bare(MailAddress address, ConsumerRecord<byte[], byte[]> record) {
    String key = foreignKey(record);
    MailMessage copy =
        MailMessage.to(address)
            .id(record.topic() + ":" + record.partition() + ":" + record.offset())
            .body(text(record.value()))
            .header(SystemHeaders.SEND_ID, key)
            .header(SystemHeaders.SENT_AT, SentAt.format(Instant.ofEpochMilli(record.timestamp())))
            .build();
    return new Received(copy, record.headers().toArray().length);
  }

  /** The key of a foreign record: the same at every delivery of it, unique in the cluster. */
  private static String foreignKey(ConsumerRecord<byte[], byte[]> record) {
    return Ids.stable(
        record.topic(), Integer.toString(record.partition()), Long.toString(record.offset()));
  }

  // Compared as bytes: asked of every record read, before anything is decoded.
  private static boolean isOurs(ConsumerRecord<byte[], byte[]> record) {
    Header marker = record.headers().lastHeader(PRODUCER);
    if (marker == null || !java.util.Arrays.equals(marker.value(), OURS_BYTES)) {
      return false;
    }
    Header sendId = record.headers().lastHeader(SystemHeaders.SEND_ID);
    return sendId != null && sendId.value() != null && !isBlank(sendId.value());
  }

  /** {@link String#isBlank} of the UTF-8 text, without decoding plain ASCII. */
  private static boolean isBlank(byte[] utf8) {
    for (byte b : utf8) {
      if (b < 0) {
        return text(utf8).isBlank(); // not ASCII: let String decide (Unicode spaces)
      }
      if (!Character.isWhitespace(b)) {
        return false;
      }
    }
    return true;
  }

  private static Long epochMillis(String instant) {
    try {
      return SentAt.parse(instant).toEpochMilli();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** UTF-8 text; bytes that are not UTF-8 become U+FFFD instead of failing the delivery. */
  private static String text(byte[] bytes) {
    return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * The broker counts deliveries of a share group's record (a release or a lock running out hands
   * it out again): the copy's round is the deliveries before this one, so the kernel's attempt and
   * delivery-cap rules see them.
   */
  static MailMessage withDeliveryCount(MailMessage copy, ConsumerRecord<byte[], byte[]> record) {
    int deliveredBefore = record.deliveryCount().map(count -> count - 1).orElse(0).intValue();
    if (deliveredBefore <= SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 0)) {
      return copy;
    }
    return copy.toBuilder().header(SystemHeaders.ROUND, Integer.toString(deliveredBefore)).build();
  }
}
