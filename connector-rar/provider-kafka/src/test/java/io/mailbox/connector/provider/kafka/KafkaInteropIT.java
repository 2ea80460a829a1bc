package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Plain kafka-clients on the other side: what they write we read, what we post they read. */
class KafkaInteropIT {
  private final KafkaBroker broker = KafkaBroker.shared();
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private MailboxProvider provider;

  @BeforeEach
  void start() {
    KafkaSettings settings =
        KafkaSettings.defaults()
            .withBootstrapServers(broker.bootstrapServers())
            .withTopicCreation(1);
    provider =
        MailboxProvider.of(new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
  }

  @AfterEach
  void stop() {
    provider.stop(true);
  }

  @Test
  void aRecordOfAPlainProducerReachesASubscriber() throws Exception {
    MailAddress inbox = MailAddress.parse("kafka://billing@shop/from-plain-" + run);
    List<MailMessage> received = new CopyOnWriteArrayList<>();
    provider.subscribe(inbox, MailboxSubscriber.of(received::add));
    String topic = new TopicNames("mailbox.").topic(inbox);

    try (KafkaProducer<String, String> plain = plainProducer()) {
      ProducerRecord<String, String> record =
          new ProducerRecord<>(topic, "order-1", "{\"total\":3}");
      record.headers().add("source", "legacy".getBytes(StandardCharsets.UTF_8));
      record.headers().add(SystemHeaders.ROUND, "7".getBytes(StandardCharsets.UTF_8));
      plain.send(record).get();
    }

    Eventually.await(
        "the subscriber got the record", Duration.ofSeconds(20), () -> !received.isEmpty());
    MailMessage message = received.get(0);
    assertThat(message.id()) // where it is: topic:partition:offset (a record key is no id)
        .matches(java.util.regex.Pattern.quote(topic) + ":\\d+:\\d+");
    assertThat(message.header("ordering-key")).contains("order-1");
    assertThat(message.body()).isEqualTo("{\"total\":3}");
    assertThat(message.header("source")).contains("legacy");
    assertThat(message.header(SystemHeaders.ROUND)).as("a forged round is dropped").contains("1");
    assertThat(message.sendId()).isPresent();
  }

  @Test
  void aPostIsReadByAPlainConsumerWithKeyHeadersAndValueAsDocumented() {
    MailAddress inbox = MailAddress.parse("kafka://billing@shop/to-plain-" + run);
    MailMessage posted =
        provider.post(
            MailMessage.to(inbox)
                .id("invoice-9")
                .body("{\"amount\":10}")
                .header(KafkaRecords.ORDERING_KEY, "customer-4")
                .header("tenant", "acme")
                .build());
    String topic = new TopicNames("mailbox.").topic(inbox);

    try (KafkaConsumer<String, String> plain = plainConsumer()) {
      plain.subscribe(List.of(topic));
      List<ConsumerRecord<String, String>> records = new CopyOnWriteArrayList<>();
      Eventually.await(
          "the plain consumer read the post",
          Duration.ofSeconds(20),
          () -> {
            plain.poll(Duration.ofMillis(200)).forEach(records::add);
            return !records.isEmpty();
          });
      ConsumerRecord<String, String> record = records.get(0);
      assertThat(record.key()).isEqualTo("customer-4");
      assertThat(record.value()).isEqualTo("{\"amount\":10}");
      assertThat(header(record, "tenant")).isEqualTo("acme");
      assertThat(header(record, KafkaRecords.MESSAGE_ID)).isEqualTo("invoice-9");
      assertThat(header(record, SystemHeaders.SEND_ID)).isEqualTo(posted.sendId().orElseThrow());
    }
  }

  private static String header(ConsumerRecord<?, ?> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  private KafkaProducer<String, String> plainProducer() {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
  }

  private KafkaConsumer<String, String> plainConsumer() {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, "plain-" + run);
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
  }
}
