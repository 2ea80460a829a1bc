package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.GetResponse;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Looks into the queues nobody should be consuming while an operator looks: an address's
 * dead-letter queue and its parked queue. It lists them and removes one message by its key without
 * losing or reordering anything.
 *
 * <p><b>How.</b> AMQP has no browse, so a look takes <em>every</em> message of the queue with
 * {@code basic.get} without acknowledging them, on a channel of its own, then closes that channel.
 * RabbitMQ puts a returned message behind the ones still queued (measured on 3.10's quorum queues:
 * a look at the first three of five left them last), so a look that took only the head would
 * reorder the queue; taking them all returns them in their order. Removing acknowledges the one
 * message with the key. The returns are applied after the close, asynchronously, so a look waits
 * until the queue holds them again before the next one starts. Nothing is published again: a look
 * can neither lose nor duplicate a message. A queue holding more than {@link #LOOK_LIMIT} is
 * refused.
 *
 * <p><b>What it costs.</b> While a look runs the queue reads empty to a consumer, and RabbitMQ
 * counts each return in {@code x-delivery-count}. That is why the provider looks only where no
 * consumer should be: a consumer of a dead-letter address (rare) would see those returns as
 * deliveries ({@code amqpMaxDeliveries}). A record that arrives during a look lands before the
 * returned ones. The copies listed are read without the looks' count: a look is not a delivery.
 */
final class QueueBrowser {
  /** The most messages a look takes; a queue holding more is not looked into. */
  static final int LOOK_LIMIT = 10_000;

  private static final long RETURN_WAIT_NANOS = Duration.ofSeconds(5).toNanos();

  private final BrokerLink link;
  private final AmqpQueues queues;
  private final DeliveryReader reader;

  /** What one look read and removed. */
  private record Look(List<MailMessage> copies, int removed) {
    static final Look NOTHING = new Look(List.of(), 0);
  }

  QueueBrowser(BrokerLink link, AmqpQueues queues, DeliveryReader reader) {
    this.link = link;
    this.queues = queues;
    this.reader = reader;
  }

  /** Copies of up to {@code limit} messages at the head of {@code queue}, oldest first. */
  List<MailMessage> peek(MailAddress address, String queue, int limit) {
    List<MailMessage> all = look(address, queue, null).copies();
    return List.copyOf(all.subList(0, Math.min(limit, all.size())));
  }

  /**
   * Removes the message with copy key {@code key} from {@code queue}.
   *
   * @return 1 when it was found, else 0
   */
  int remove(MailAddress address, String queue, String key) {
    return look(address, queue, key).removed();
  }

  /** Purges {@code queue}; returns how many messages went (0 when it does not exist). */
  int purge(String queue) {
    if (queues.inspect(queue).isEmpty()) {
      return 0;
    }
    return link.admin(channel -> channel.queuePurge(queue)).getMessageCount();
  }

  // One look at a time in this provider: a second one would find the first's messages away.
  private synchronized Look look(MailAddress address, String queue, String removeKey) {
    Optional<AMQP.Queue.DeclareOk> queued = queues.inspect(queue);
    if (queued.isEmpty()) {
      return Look.NOTHING;
    }
    if (queued.get().getMessageCount() > LOOK_LIMIT) {
      throw new MailboxException(
          ErrorCode.UNSUPPORTED_CAPABILITY,
          "RabbitMQ queue "
              + queue
              + " holds "
              + queued.get().getMessageCount()
              + " messages, more than the "
              + LOOK_LIMIT
              + " a look takes without reordering them; nothing was taken (consume or purge it).");
    }
    Look look =
        link.onOwnChannel(
            channel -> {
              List<MailMessage> copies = new ArrayList<>();
              int removed = 0;
              GetResponse response;
              while (copies.size() + removed < LOOK_LIMIT
                  && (response = channel.basicGet(queue, false)) != null) {
                MailMessage copy = readAsStored(address, response);
                if (removed == 0 && removeKey != null && removeKey.equals(key(copy))) {
                  // Applied before the channel's close returns the others.
                  channel.basicAck(response.getEnvelope().getDeliveryTag(), false);
                  removed = 1;
                } else {
                  copies.add(copy);
                }
              }
              return new Look(copies, removed);
            });
    awaitReturned(queue, look.copies().size());
    return look;
  }

  /** Waits (bounded) until the queue holds the {@code returned} messages again. */
  private void awaitReturned(String queue, int returned) {
    long deadline = System.nanoTime() + RETURN_WAIT_NANOS;
    while (returned > 0 && queues.count(queue) < returned && System.nanoTime() < deadline) {
      LockSupport.parkNanos(5_000_000);
    }
  }

  private static String key(MailMessage copy) {
    return copy.sendId().orElse(null);
  }

  private MailMessage readAsStored(MailAddress address, GetResponse response) {
    AMQP.BasicProperties properties = response.getProps();
    Map<String, Object> headers = properties.getHeaders();
    if (headers != null && headers.containsKey(AmqpMessages.DELIVERY_COUNT)) {
      Map<String, Object> stored = new HashMap<>(headers);
      stored.remove(AmqpMessages.DELIVERY_COUNT);
      properties = properties.builder().headers(stored).build();
    }
    return reader.read(address, properties, response.getBody());
  }
}
