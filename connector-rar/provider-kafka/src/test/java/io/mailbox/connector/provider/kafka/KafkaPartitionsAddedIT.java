package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A partition added to an address's topic while no server runs, with a record posted to it before
 * any server is back: the next server to start must deliver that record. A group's start moves
 * partitions to their end only for a group that never read the topic; a started group reads an
 * added partition from its earliest record. Ordered addresses (consumer groups) and queue addresses
 * (share groups) start differently, so both are run.
 */
class KafkaPartitionsAddedIT {
  private final String bootstrap = KafkaBroker.shared().bootstrapServers();

  @Test
  void anOrderedAddressDeliversARecordPostedToAPartitionAddedWhileNoServerRan() throws Exception {
    aRecordInAnAddedPartitionIsDelivered("ordered-" + suffix(), KafkaSettings.defaults());
  }

  @Test
  void aQueueAddressDeliversARecordPostedToAPartitionAddedWhileNoServerRan() throws Exception {
    aRecordInAnAddedPartitionIsDelivered(
        "queue-" + suffix(), KafkaSettings.defaults().withQueueAddresses("billing@shop/queue-*"));
  }

  private void aRecordInAnAddedPartitionIsDelivered(String name, KafkaSettings kind)
      throws Exception {
    KafkaSettings settings = kind.withBootstrapServers(bootstrap).withTopicCreation(1);
    MailAddress invoices = MailAddress.parse("kafka://billing@shop/" + name);
    String topic = new TopicNames(settings.topicPrefix()).topic(invoices);

    MailboxProvider first = provider(settings);
    try {
      assertThat(first.fetch(invoices, FetchOptions.leased().limit(1))).isEmpty(); // started
      first.post(MailMessage.to(invoices).id("before").body("{}").build());
      List<Delivery> before = takeAll(first, invoices, 1);
      assertThat(before).extracting(d -> d.message().id()).containsExactly("before");
      before.forEach(d -> assertThat(d.ack()).isTrue());
      Eventually.await(
          "the first record settled",
          Duration.ofSeconds(30),
          () -> first.status(invoices).unreadCount() == 0);
    } finally {
      first.stop(true);
    }

    // No server runs: an operator adds a partition, and another application posts to it.
    try (Admin admin = Admin.create(adminProperties())) {
      admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(2))).all().get();
    }
    try (KafkaProducer<String, String> producer = plainProducer()) {
      producer.send(new ProducerRecord<>(topic, 1, "added-key", "{\"added\":true}")).get();
    }

    MailboxProvider next = provider(settings);
    try {
      Eventually.await(
          "the added partition's record counted unread",
          Duration.ofSeconds(30),
          () -> next.status(invoices).unreadCount() == 1);
      assertThat(next.fetch(invoices, FetchOptions.peek(5))).as("and listed").hasSize(1);
      List<Delivery> after = takeAll(next, invoices, 1);
      assertThat(after).as("delivered, not skipped").hasSize(1);
      assertThat(after.get(0).message().body()).contains("\"added\":true");
      after.forEach(d -> assertThat(d.ack()).isTrue());
      Eventually.await(
          "nothing unread once it is settled",
          Duration.ofSeconds(30),
          () -> next.status(invoices).unreadCount() == 0);
    } finally {
      next.stop(true);
    }
  }

  private static List<Delivery> takeAll(MailboxProvider provider, MailAddress address, int count) {
    List<Delivery> taken = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (taken.size() < count && System.nanoTime() < deadline) {
      taken.addAll(provider.fetch(address, FetchOptions.leased().limit(count - taken.size())));
    }
    return taken;
  }

  private Properties adminProperties() {
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return properties;
  }

  private KafkaProducer<String, String> plainProducer() {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
  }

  private static MailboxProvider provider(KafkaSettings settings) {
    MailboxProvider provider =
        MailboxProvider.of(new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    return provider;
  }

  private static String suffix() {
    return UUID.randomUUID().toString().substring(0, 8);
  }
}
