package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The RabbitMQ deliveries this process holds unacknowledged while the kernel settles them, by copy
 * key: which channel must ack or nack each, and its tag there. A channel that closed has already
 * returned its deliveries to their queues, so a failed ack or nack is at-least-once, never a loss.
 */
final class HeldDeliveries {
  private static final Logger LOG = Logger.getLogger(HeldDeliveries.class.getName());

  /** One delivery: the channel it came on and its tag there. */
  record Held(Channel channel, long tag) {
    void ack() {
      try {
        channel.basicAck(tag, false);
      } catch (IOException | RuntimeException e) {
        // The channel closed: RabbitMQ already returned the delivery to its queue (at least once).
        LOG.fine(() -> "Could not ack a delivery; it will be redelivered");
      }
    }

    /** Back to its queue, in place (RabbitMQ counts it in {@code x-delivery-count}). */
    void nack() {
      try {
        channel.basicNack(tag, false, true);
      } catch (IOException | RuntimeException e) {
        LOG.fine(() -> "Could not return a delivery; the closed channel returned it");
      }
    }
  }

  private final Map<String, Held> byKey = new ConcurrentHashMap<>();

  void hold(String key, Held delivery) {
    byKey.put(key, delivery);
  }

  /** Takes the delivery of {@code key} out: the caller acks or nacks it. */
  Optional<Held> release(String key) {
    return Optional.ofNullable(byKey.remove(key));
  }

  /** Whether a delivery of {@code channel} is still being settled. */
  boolean holdsAnyOf(Channel channel) {
    return byKey.values().stream().anyMatch(h -> h.channel() == channel);
  }

  /** The connection closed: RabbitMQ took every one of them back. */
  void clear() {
    byKey.clear();
  }

  int size() {
    return byKey.size();
  }
}
