package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.util.Collection;

/** The RabbitMQ on this machine (127.0.0.1:5672, guest), for tests: raw clients and clean-up. */
final class RabbitMq {
  static final String URI = "amqp://guest:guest@127.0.0.1:5672/%2F";

  private RabbitMq() {}

  static Connection connect() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(URI);
    factory.setAutomaticRecoveryEnabled(false);
    return factory.newConnection("mailbox-test");
  }

  /** Deletes queues a test created, so test runs do not pile up quorum queues in the broker. */
  static void delete(Collection<String> queues) {
    if (queues.isEmpty()) {
      return;
    }
    try (Connection connection = connect()) {
      for (String queue : queues) {
        try (Channel channel = connection.createChannel()) {
          channel.queueDelete(queue);
        } catch (Exception ignored) {
          // already gone, or the channel closed: nothing to clean
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException("Could not clean up test queues in RabbitMQ", e);
    }
  }
}
