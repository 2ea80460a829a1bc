package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.provider.kafka.KafkaBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The quick start with its events on Kafka (issue 15): the start script's Payara Micro with the
 * {@code kafka:} provider on a real single-node broker started by the test. The outbox relay
 * publishes {@code orders.placed.v1} to {@code kafka:orders@shop/placed}, billing's processor reads
 * it through an {@code @Incoming} channel (an ordered consumer group) and writes invoice requests
 * through an {@code @Outgoing} channel to {@code kafka:billing@shop/invoices}, a queue address (a
 * share group, {@code MAILBOX_KAFKA_QUEUE_ADDRESSES}), whose {@code @Incoming} sink runs through
 * the consumer inbox. Every acknowledged order must be invoiced and shipped exactly once; the
 * console lists both Kafka addresses; a plain kafka-clients consumer reads what the channel wrote
 * (value and headers as docs/providers.md says), and a record a plain producer writes is consumed
 * by the channel.
 */
class KafkaChannelsIT {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  private static final Path DATA =
      Path.of(System.getProperty("mailbox.testData")).toAbsolutePath().resolveSibling("kafka-data");
  private static final String USERNAME = "kafka-operator";
  private static final String PASSWORD = "Kafka-" + UUID.randomUUID();
  private static final String PLACED = "kafka:orders@shop/placed";
  private static final String INVOICES = "kafka:billing@shop/invoices";

  /** The topic of {@link #INVOICES} under the default prefix (docs/providers.md, the mapping). */
  private static final String INVOICES_TOPIC = "mailbox.billing_40shop_2Finvoices";

  private static final int ORDERS = 150;
  private static final Pattern ORDER_ID = Pattern.compile("\"orderId\":\"([^\"]+)\"");
  private static final Pattern ENVELOPE_ID = Pattern.compile("^\\{\"id\":\"([^\"]+)\"");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static long pid;

  @AfterAll
  static void stopWhatIsLeft() {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  @Test
  void theQuickStartsChannelsAndRelayRunOnKafkaAndInteroperateWithPlainClients() throws Exception {
    KafkaBroker broker = KafkaBroker.shared();
    MicroStartScript.deleteRecursively(DATA);
    int port = MicroStartScript.freePort();
    String base = "http://localhost:" + port;
    pid =
        MicroStartScript.start(
                REPOSITORY,
                port,
                DATA,
                Map.ofEntries(
                    Map.entry("MAILBOX_CONSOLE_USERNAME", USERNAME),
                    Map.entry("MAILBOX_CONSOLE_PASSWORD", PASSWORD),
                    Map.entry("MAILBOX_PROVIDERS", "mem,jdbc,kafka"),
                    Map.entry("MAILBOX_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers()),
                    Map.entry("MAILBOX_KAFKA_CREATE_TOPICS", "true"),
                    // Invoice requests are work items: read as a queue (a share group).
                    Map.entry("MAILBOX_KAFKA_QUEUE_ADDRESSES", "billing@shop/invoices"),
                    // Smaller than the default: a batch set in the environment reaches the adapter.
                    Map.entry("MAILBOX_KAFKA_QUEUE_BATCH", "100"),
                    // MicroProfile Config reads the environment: the relay's route and billing's
                    // channels on kafka:.
                    Map.entry("MAILBOX_OUTBOX_ROUTE_ORDERS_PLACED_V1", PLACED),
                    Map.entry("MP_MESSAGING_INCOMING_PLACED_ORDERS_ADDRESS", PLACED),
                    Map.entry("MP_MESSAGING_OUTGOING_INVOICES_ADDRESS", INVOICES),
                    Map.entry("MP_MESSAGING_INCOMING_INVOICES_IN_ADDRESS", INVOICES)))
            .pid();

    OrderTraffic traffic = OrderTraffic.until(ORDERS, 4, base, Duration.ofMinutes(3));
    ConsoleApi console = new ConsoleApi(base, USERNAME, PASSWORD);
    try {
      console.awaitEverythingDelivered(Duration.ofMinutes(2));
    } catch (AssertionError stuck) {
      Path dump = MicroStartScript.threadDump(pid, DATA);
      throw new AssertionError(stuck.getMessage() + " (the server's threads: " + dump + ")", stuck);
    }
    String snapshot = console.get("/console/api/snapshot");

    // What the @Outgoing channel wrote, read by a plain consumer: the envelope as the value, our
    // headers beside it.
    List<ConsumerRecord<String, String>> written = readAll(broker, traffic.acknowledged().size());
    ConsumerRecord<String, String> sample = written.get(0);
    assertThat(sample.value()).startsWith("{\"id\":").contains("\"orderId\":");
    assertThat(header(sample, "mbx-message-id")).isNotBlank();
    assertThat(header(sample, "mbx-send-id")).isNotBlank();
    assertThat(header(sample, "mbx-producer")).isEqualTo("mailbox");

    // A plain producer's invoice request for an order of its own reaches the @Incoming sink.
    String foreignOrder = "plain-" + UUID.randomUUID().toString().substring(0, 8);
    String foreignValue = foreignRequest(sample.value(), foreignOrder);
    try (KafkaProducer<String, String> plain = plainProducer(broker)) {
      plain.send(new ProducerRecord<>(INVOICES_TOPIC, foreignOrder, foreignValue)).get();
    }
    awaitInvoiced(base, foreignOrder, Duration.ofSeconds(60));
    MicroStartScript.stop(pid, 90);

    OrderLedger ledger = OrderLedger.readQuickStart(DATA, traffic.acknowledged());
    System.out.printf(
        "KafkaChannelsIT: %d orders acknowledged, placed events on %s, invoices on %s, %s; %d"
            + " records read by a plain consumer; a plain producer's request for %s invoiced%n",
        traffic.acknowledged().size(),
        PLACED,
        INVOICES,
        ledger.describe(),
        written.size(),
        foreignOrder);
    assertThat(traffic.acknowledged()).hasSizeGreaterThanOrEqualTo(ORDERS);
    assertThat(snapshot)
        .as("the console lists both kafka: addresses, served by the kafka provider")
        .contains("\"address\":\"kafka://billing@shop/invoices\",\"provider\":\"kafka\"")
        .contains("\"address\":\"kafka://orders@shop/placed\",\"provider\":\"kafka\"");
    assertThat(snapshot)
        .as("the invoices are read as a queue, the placed orders as an ordered log")
        .contains("\"kafka.model\":\"queue\"")
        .contains("\"kafka.model\":\"ordered\"");
    Set<String> invoicedByRecord = new HashSet<>();
    written.forEach(
        r -> {
          Matcher order = ORDER_ID.matcher(r.value());
          if (order.find()) {
            invoicedByRecord.add(order.group(1));
          }
        });
    assertThat(invoicedByRecord)
        .as("every acknowledged order's invoice request is a record on the topic")
        .containsAll(traffic.acknowledged());
    ledger.assertThePromiseHolds("the events went through Kafka");
  }

  /** Every record of the invoices topic (at least {@code atLeast}), read by a group of its own. */
  private static List<ConsumerRecord<String, String>> readAll(KafkaBroker broker, int atLeast) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, "plain-reader-" + UUID.randomUUID());
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> plain =
        new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer())) {
      plain.subscribe(List.of(INVOICES_TOPIC));
      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      while (records.size() < atLeast && Instant.now().isBefore(deadline)) {
        plain.poll(Duration.ofMillis(500)).forEach(records::add);
      }
    }
    assertThat(records).as("records a plain consumer read").hasSizeGreaterThanOrEqualTo(atLeast);
    return records;
  }

  /** {@code template}'s envelope with a new id, for {@code orderId}. */
  private static String foreignRequest(String template, String orderId) {
    Matcher id = ENVELOPE_ID.matcher(template);
    assertThat(id.find()).as("an envelope id at the start of " + template).isTrue();
    return template
        .replace(id.group(1), UUID.randomUUID().toString())
        .replaceFirst("\"orderId\":\"[^\"]+\"", "\"orderId\":\"" + orderId + "\"");
  }

  private static KafkaProducer<String, String> plainProducer(KafkaBroker broker) {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
  }

  private static String header(ConsumerRecord<String, String> record, String name) {
    var header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static void awaitInvoiced(String base, String orderId, Duration within) throws Exception {
    Instant deadline = Instant.now().plus(within);
    String progress = "";
    while (Instant.now().isBefore(deadline)) {
      progress =
          HTTP.send(
                  HttpRequest.newBuilder(URI.create(base + "/orders-app/api/orders/progress"))
                      .timeout(Duration.ofSeconds(20))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      if (progress.contains(orderId)) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("the plain producer's request was not invoiced: " + progress);
  }
}
