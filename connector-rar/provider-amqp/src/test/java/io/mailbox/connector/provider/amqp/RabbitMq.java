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

  /** Raises a memory alarm: RabbitMQ blocks every publishing connection until it is cleared. */
  static void blockPublishers() throws Exception {
    rabbitmqctl("set_vm_memory_high_watermark", "0.000001");
  }

  /** Clears the alarm (back to RabbitMQ's default watermark, 0.4). */
  static void unblockPublishers() throws Exception {
    rabbitmqctl("set_vm_memory_high_watermark", "0.4");
  }

  /** Runs {@code rabbitmqctl} on this machine (tests run as a user that may manage the broker). */
  static void rabbitmqctl(String... arguments) throws Exception {
    java.util.List<String> command = new java.util.ArrayList<>();
    command.add("rabbitmqctl");
    command.addAll(java.util.List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("rabbitmqctl " + String.join(" ", arguments) + ": " + output);
    }
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
