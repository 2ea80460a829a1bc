package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.amqp.AmqpProvider;
import io.mailbox.connector.provider.amqp.AmqpSettings;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.testsupport.TestDatabase;
import jakarta.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The outbox relay end to end onto RabbitMQ: rows committed on embedded H2 are relayed through the
 * {@code amqp:} provider and read back by a plain amqp-client consumer; a broker refusal leaves the
 * row to retry, and the retry delivers it.
 */
class OutboxRelayToRabbitMqIT {
  private static final IntegrationEventDefinition<String> PLACED =
      IntegrationEventDefinition.define(
          "orders.placed", 1, "orders.placed.v1", data -> data.toString());
  private static final RelaySettings QUICK_RETRY =
      RelaySettings.defaults().withLimits(1000, 1000).withAttempts(5, Duration.ofMillis(10));

  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final String queue = "events@it/orders.placed.v1-" + run;
  private TestDatabase database;
  private MailboxProvider provider;
  private OutboxStore store;
  private OutboxRelay relay;

  @BeforeEach
  void start() {
    database = TestDatabase.h2("relay-amqp");
    provider =
        MailboxProvider.of(
            new AmqpProvider(AmqpSettings.defaults(), Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    store = database.transactional(OutboxStore.class, JpaOutboxQueries::new);
    relay =
        new OutboxRelay(
            store,
            row -> provider.post(row.toMessage()),
            QUICK_RETRY,
            Clock.systemUTC(),
            "relay-it");
  }

  @AfterEach
  void stop() throws Exception {
    provider.stop(false);
    database.close();
    try (Connection connection = connect();
        Channel channel = connection.createChannel()) {
      channel.queueDelete(queue);
    }
  }

  private static Connection connect() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(AmqpSettings.DEFAULT_URI);
    return factory.newConnection("relay-it");
  }

  private List<String> write(int count, int keys) {
    OutboxRows rows =
        new OutboxRows(Clock.systemUTC(), topic -> "amqp:events@it/" + topic + "-" + run, 262_144);
    List<String> ids = new ArrayList<>();
    database.inTransaction(
        em -> {
          for (int i = 0; i < count; i++) {
            OutboxRecord record =
                rows.create(
                    PLACED,
                    Json.createValue(i),
                    WriteOptions.none().withOrderingKey("key-" + (i % keys)));
            em.persist(record);
            ids.add(record.id());
          }
          return null;
        });
    return ids;
  }

  private void relayUntilNothingPending() {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (store.count(OutboxStatus.PENDING) > 0) {
      assertThat(System.nanoTime()).as("relay finished in time").isLessThan(deadline);
      relay.sweep();
    }
  }

  /** Every message in the queue, as a plain AMQP consumer sees it: message id → its headers. */
  private Map<String, Map<String, Object>> drain() throws Exception {
    Map<String, Map<String, Object>> received = new LinkedHashMap<>();
    try (Connection connection = connect();
        Channel channel = connection.createChannel()) {
      for (GetResponse got; (got = channel.basicGet(queue, true)) != null; ) {
        assertThat(new String(got.getBody(), StandardCharsets.UTF_8)).contains("orders.placed");
        received.put(got.getProps().getMessageId(), got.getProps().getHeaders());
      }
    }
    return received;
  }

  @Test
  void committedRowsArriveInRabbitMqOnceEachAndInOrderPerKey() throws Exception {
    List<String> ids = write(300, 7);

    relayUntilNothingPending();

    Map<String, Map<String, Object>> received = drain();
    assertThat(received.keySet()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(300);
    for (int key = 0; key < 7; key++) {
      int k = key;
      List<String> written = new ArrayList<>();
      for (int i = k; i < ids.size(); i += 7) {
        written.add(ids.get(i));
      }
      List<String> arrived = received.keySet().stream().filter(written::contains).toList();
      assertThat(arrived).as("ordering key " + k).containsExactlyElementsOf(written);
    }
    Map<String, Object> headers = received.get(ids.get(0));
    assertThat(headers.get("event-topic").toString()).isEqualTo("orders.placed.v1");
  }

  @Test
  void aRowRabbitMqRefusesIsRetriedAndDeliveredOnceTheQueueTakesItAgain() throws Exception {
    // The queue exists but takes nothing: RabbitMQ nacks every publish.
    try (Connection connection = connect();
        Channel channel = connection.createChannel()) {
      channel.queueDeclare(
          queue,
          true,
          false,
          false,
          Map.of("x-queue-type", "quorum", "x-max-length", 0, "x-overflow", "reject-publish"));
    }
    String id = write(1, 1).get(0);

    relay.sweep();

    OutboxRow refused = store.find(id).orElseThrow();
    assertThat(refused.status()).isEqualTo(OutboxStatus.PENDING);
    assertThat(refused.attempts()).isEqualTo(1);
    assertThat(refused.lastError()).contains("refused");

    try (Connection connection = connect();
        Channel channel = connection.createChannel()) {
      channel.queueDelete(queue); // the provider declares a normal queue on the next attempt
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (store.find(id).orElseThrow().status() != OutboxStatus.SENT) {
      assertThat(System.nanoTime()).as("retried in time").isLessThan(deadline);
      Thread.sleep(50);
      relay.sweep();
    }
    assertThat(drain()).containsOnlyKeys(id);
  }
}
