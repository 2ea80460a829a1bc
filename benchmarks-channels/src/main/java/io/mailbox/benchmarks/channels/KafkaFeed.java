package io.mailbox.benchmarks.channels;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.kafka.KafkaBroker;
import io.mailbox.connector.provider.kafka.KafkaProvider;
import io.mailbox.connector.provider.kafka.KafkaSettings;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Kafka for both (the tests' single-node broker, started in this JVM): our connector reads a {@code
 * kafka:} stream address (its topic, in the provider's consumer group), SmallRye's {@code
 * smallrye-kafka} connector a topic of its own in a group of its own; each with its defaults, one
 * partition each. One raw producer ({@code acks=all}) fills both the same way, flushed once per
 * round, timed from the first send.
 */
final class KafkaFeed implements Feed {
  private static final MailAddress OURS = MailAddress.parse("kafka:bench@channels/orders");
  private static final String THEIR_TOPIC = "bench-channels-smallrye";

  private String servers;
  private Mailbox kernel;
  private KafkaProducer<String, String> producer;
  private String ourTopic;

  @Override
  public String ours() {
    return "mailbox connector on kafka:";
  }

  @Override
  public String theirs() {
    return "SmallRye Kafka";
  }

  @Override
  public void configure(Mailbox kernel) {
    this.kernel = kernel;
    servers = KafkaBroker.shared().bootstrapServers();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", servers))) {
      admin.createTopics(List.of(new NewTopic(THEIR_TOPIC, 1, (short) 1))).all().get();
    } catch (Exception e) {
      throw new IllegalStateException("could not create " + THEIR_TOPIC, e);
    }
    kernel.register(
        MailboxProvider.of(
            new KafkaProvider(
                KafkaSettings.defaults().withBootstrapServers(servers).withTopicCreation(1),
                Clock.systemUTC(),
                new ExecutorScheduler())));
    Feed.channels(
        OURS.toString(),
        Map.of(
            "connector", "smallrye-kafka",
            "bootstrap.servers", servers,
            "topic", THEIR_TOPIC,
            "group.id", "bench-channels-smallrye",
            "auto.offset.reset", "earliest",
            "value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer"));
  }

  /**
   * Waits until each side consumes: a probe record sent again every second until its sink counts it
   * (a consumer group joins, and our reader starts at records stored after it, in seconds).
   */
  @Override
  public void started(WeldContainer container) throws Exception {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    producer = new KafkaProducer<>(properties);
    for (int tries = 0; ourTopic == null; tries++) {
      ourTopic = (String) kernel.status(OURS).extensions().get("kafka.topic");
      if (tries > 600) {
        throw new IllegalStateException("our channel made no topic for " + OURS + " within 60 s");
      }
      Thread.sleep(100);
    }
    probe(ourTopic, Pipelines.MAILBOX_RECEIVED, "ours");
    probe(THEIR_TOPIC, Pipelines.SMALLRYE_RECEIVED, "theirs");
  }

  private void probe(String topic, AtomicLong received, String side) throws Exception {
    long before = received.get();
    for (int second = 0; second < 60; second++) {
      producer.send(new ProducerRecord<>(topic, ChannelBenchmark.order(-1))).get();
      Thread.sleep(1_000);
      if (received.get() > before) {
        Thread.sleep(2_000); // the probes sent while it joined arrive too, before round 1 counts
        return;
      }
    }
    throw new IllegalStateException(side + ": no probe consumed within 60 s");
  }

  @Override
  public void feedOurs(int messages) {
    send(ourTopic, messages);
  }

  @Override
  public void feedTheirs(int messages) {
    send(THEIR_TOPIC, messages);
  }

  private void send(String topic, int messages) {
    for (int i = 0; i < messages; i++) {
      producer.send(new ProducerRecord<>(topic, ChannelBenchmark.order(i)));
    }
    producer.flush();
  }

  @Override
  public void close() {
    if (producer != null) {
      producer.close();
    }
  }
}
