package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class KafkaRecordsTest {
  private static final MailAddress INBOX = MailAddress.parse("kafka://orders@shop/placed");

  private static ConsumerRecord<byte[], byte[]> received(ProducerRecord<byte[], byte[]> sent) {
    return new ConsumerRecord<>(
        sent.topic(),
        0,
        42L,
        sent.timestamp() == null ? 0L : sent.timestamp(),
        TimestampType.CREATE_TIME,
        -1,
        -1,
        sent.key(),
        sent.value(),
        new RecordHeaders(sent.headers().toArray()),
        Optional.empty());
  }

  @Test
  void aCopyWeWroteComesBackWhole() {
    MailMessage copy =
        MailMessage.to(INBOX)
            .id("order-7")
            .from("kafka://shop@web/front")
            .body("{\"total\":12}")
            .header(SystemHeaders.SEND_ID, "send-1")
            .header(SystemHeaders.SENT_AT, "2026-12-01T10:00:00Z")
            .header(SystemHeaders.ROUND, "2")
            .header(KafkaRecords.ORDERING_KEY, "customer-9")
            .header("app", "kept")
            .meta("tenant", "t1")
            .build();

    ProducerRecord<byte[], byte[]> record = KafkaRecords.record("mailbox.t", copy);
    MailMessage back = KafkaRecords.read(INBOX, received(record)).copy();

    assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("customer-9");
    assertThat(record.timestamp())
        .isEqualTo(java.time.Instant.parse("2026-12-01T10:00:00Z").toEpochMilli());
    assertThat(back.id()).isEqualTo("order-7");
    assertThat(back.body()).isEqualTo("{\"total\":12}");
    assertThat(back.from()).contains(MailAddress.parse("kafka://shop@web/front"));
    assertThat(back.meta()).containsEntry("tenant", "t1");
    assertThat(back.headers())
        .containsEntry(SystemHeaders.SEND_ID, "send-1")
        .containsEntry(SystemHeaders.ROUND, "2")
        .containsEntry("app", "kept")
        .doesNotContainKey(KafkaRecords.PRODUCER);
  }

  @Test
  void withoutAnOrderingKeyTheRecordHasNoKey() {
    MailMessage copy = MailMessage.to(INBOX).body("x").header(SystemHeaders.SEND_ID, "s").build();
    assertThat(KafkaRecords.record("t", copy).key()).isNull();
  }

  @Test
  void aForeignRecordIsIdentifiedByWhereItIsAndLosesForgedSystemHeadersAndUnsafeOnes() {
    RecordHeaders headers = new RecordHeaders();
    headers.add(SystemHeaders.SEND_ID, bytes("forged"));
    headers.add(SystemHeaders.ROUND, bytes("9"));
    headers.add("trace\u0007id", bytes("x"));
    headers.add("note", bytes("line one\nline two\u202e"));
    headers.add("empty", null);
    ConsumerRecord<byte[], byte[]> foreign =
        new ConsumerRecord<>(
            "mailbox.t",
            0,
            1L,
            1_000L,
            TimestampType.CREATE_TIME,
            -1,
            -1,
            bytes("key-1"),
            bytes("plain text"),
            headers,
            Optional.empty());

    KafkaRecords.Received received = KafkaRecords.read(INBOX, foreign);

    MailMessage copy = received.copy();
    assertThat(copy.sendId()).isPresent().get().isNotEqualTo("forged");
    assertThat(copy.header(SystemHeaders.ROUND)).isEmpty();
    assertThat(copy.header(SystemHeaders.SENT_AT)).contains("1970-01-01T00:00:01Z");
    assertThat(copy.id())
        .as("topic:partition:offset, not the key every record of an entity shares")
        .isEqualTo(foreign.topic() + ":" + foreign.partition() + ":" + foreign.offset());
    assertThat(copy.header(KafkaRecords.ORDERING_KEY)).contains("key-1");
    assertThat(KafkaRecords.read(INBOX, foreign).copy().sendId())
        .as("the same key at every delivery")
        .isEqualTo(copy.sendId());
    assertThat(copy.header("note")).contains("line oneline two");
    assertThat(received.droppedHeaders()).isEqualTo(4); // two forged, one unsafe name, one null
  }

  @Test
  void aForgedProducerMarkerWithoutASendIdIsStillForeign() {
    RecordHeaders headers = new RecordHeaders();
    headers.add(KafkaRecords.PRODUCER, bytes("mailbox"));
    ConsumerRecord<byte[], byte[]> forged =
        new ConsumerRecord<>(
            "t",
            0,
            1L,
            0L,
            TimestampType.CREATE_TIME,
            -1,
            -1,
            null,
            bytes("b"),
            headers,
            Optional.empty());

    assertThat(KafkaRecords.read(INBOX, forged).copy().sendId()).isPresent();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aRecordThatPosesAsOursWithoutASendIdIsReadAsForeignWithAFreshOne() {
    RecordHeaders headers = new RecordHeaders();
    headers.add("mbx-producer", "mailbox".getBytes(StandardCharsets.UTF_8));
    headers.add(SystemHeaders.SEND_ID, null);
    headers.add("mbx-meta-", "x".getBytes(StandardCharsets.UTF_8));
    ProducerRecord<byte[], byte[]> poison =
        new ProducerRecord<>(
            "mailbox.t", null, 5L, null, "{}".getBytes(StandardCharsets.UTF_8), headers);

    KafkaRecords.Received read = KafkaRecords.readSafely(INBOX, received(poison));

    assertThat(read.copy().sendId()).isPresent().get().asString().isNotBlank();
    assertThat(read.copy().body()).isEqualTo("{}");
    assertThat(read.droppedHeaders()).isPositive();
  }

  @Test
  void ourOwnRecordWithAMetaHeaderWithoutANameDropsOnlyThatHeader() {
    MailMessage copy =
        MailMessage.to(INBOX)
            .id("m-1")
            .body("{}")
            .header(SystemHeaders.SEND_ID, "send-2")
            .header(SystemHeaders.SENT_AT, "2026-12-01T10:00:00Z")
            .build();
    ProducerRecord<byte[], byte[]> record = KafkaRecords.record("mailbox.t", copy);
    record.headers().add("mbx-meta-", "x".getBytes(StandardCharsets.UTF_8));

    KafkaRecords.Received read = KafkaRecords.readSafely(INBOX, received(record));

    assertThat(read.copy().sendId()).contains("send-2");
    assertThat(read.copy().meta()).isEmpty();
    assertThat(read.droppedHeaders()).isEqualTo(1);
  }
}
