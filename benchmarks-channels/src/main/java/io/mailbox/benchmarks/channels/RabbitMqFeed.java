package io.mailbox.benchmarks.channels;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.amqp.AmqpProvider;
import io.mailbox.connector.provider.amqp.AmqpSettings;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * RabbitMQ (the machine's, on 127.0.0.1:5672) for both: our connector reads an {@code amqp:}
 * address (its quorum queue), SmallRye's {@code smallrye-rabbitmq} connector a quorum queue bound
 * to an exchange of its own; each with its defaults. One raw publisher fills both the same way:
 * persistent messages, confirmed once per round, timed from the first publish.
 */
final class RabbitMqFeed implements Feed {
  private static final String OUR_QUEUE = "bench@channels/orders";
  private static final String THEIR_QUEUE = "bench-channels-smallrye";
  private static final String THEIR_EXCHANGE = "bench-channels-smallrye";
  private static final AMQP.BasicProperties PERSISTENT =
      new AMQP.BasicProperties.Builder()
          .deliveryMode(2)
          .contentType("text/plain")
          .build(); // a String payload on both sides

  private Connection connection;
  private Channel publisher;

  @Override
  public String ours() {
    return "mailbox connector on amqp:";
  }

  @Override
  public String theirs() {
    return "SmallRye RabbitMQ";
  }

  /**
   * The provider's defaults; {@code -Dbench.amqpPrefetch=N} sets {@code amqpPrefetch} (how many
   * unacknowledged messages RabbitMQ pushes ahead, 250 by default), to see what bounds a pushed
   * channel: the window or the work per message.
   */
  private static AmqpSettings settings() {
    AmqpSettings defaults = AmqpSettings.defaults();
    return defaults.withPrefetch(Integer.getInteger("bench.amqpPrefetch", defaults.prefetch()));
  }

  @Override
  public void configure(Mailbox kernel) {
    kernel.register(
        MailboxProvider.of(
            new AmqpProvider(settings(), Clock.systemUTC(), new ExecutorScheduler())));
    Feed.channels(
        "amqp:" + OUR_QUEUE,
        Map.of(
            "connector", "smallrye-rabbitmq",
            "host", "127.0.0.1",
            "port", "5672",
            "username", "guest",
            "password", "guest",
            "queue.name", THEIR_QUEUE,
            "queue.x-queue-type", "quorum",
            "exchange.name", THEIR_EXCHANGE,
            "routing-keys", "orders"));
  }

  @Override
  public void started(WeldContainer container) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost("127.0.0.1");
    connection = factory.newConnection("channel-benchmark");
    publisher = connection.createChannel();
    publisher.confirmSelect();
    awaitQueue(OUR_QUEUE);
    awaitQueue(THEIR_QUEUE);
    publisher.queuePurge(OUR_QUEUE);
    publisher.queuePurge(THEIR_QUEUE);
  }

  /** Both connectors declare their queue when their channel starts; wait until both have. */
  private void awaitQueue(String queue) throws Exception {
    for (int tries = 0; tries < 100; tries++) {
      try (Channel probe = connection.createChannel()) {
        probe.queueDeclarePassive(queue);
        return;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("queue " + queue + " was not declared within 10 s");
  }

  @Override
  public void feedOurs(int messages) throws Exception {
    publish("", OUR_QUEUE, messages);
  }

  @Override
  public void feedTheirs(int messages) throws Exception {
    publish(THEIR_EXCHANGE, "orders", messages);
  }

  private void publish(String exchange, String routingKey, int messages) throws Exception {
    for (int i = 0; i < messages; i++) {
      publisher.basicPublish(
          exchange,
          routingKey,
          PERSISTENT,
          ChannelBenchmark.order(i).getBytes(StandardCharsets.UTF_8));
    }
    publisher.waitForConfirmsOrDie(60_000);
  }

  @Override
  public void close() throws Exception {
    if (connection != null) {
      connection.close();
    }
  }
}
