package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import io.mailbox.connector.api.MailAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * The queues of the {@code amqp:} provider on the broker: an address's durable quorum queue, its
 * retry queues (a message TTL that dead-letters back, at least once) and its parked queue. Each is
 * declared once per connection; a queue deleted behind our back is declared again on next use.
 */
final class AmqpQueues {
  /**
   * The delivery limit of the queues an operator looks into (dead-letter and parked queues). A look
   * takes each message and hands it back, which RabbitMQ counts as a delivery; RabbitMQ 4 drops a
   * quorum queue's message after 20 by default. Our consumers keep their own cap ({@code
   * amqpMaxDeliveries}). (-1, "no limit" on RabbitMQ 4, drops at the first return on 3.x.)
   */
  static final int LOOKED_INTO_DELIVERY_LIMIT = 1_000_000;

  private static final Logger LOG = Logger.getLogger(AmqpQueues.class.getName());

  private final BrokerLink link;
  private final QueueNames names;
  private final Predicate<MailAddress> lookedInto;
  private final Map<MailAddress, String> queueNames = new ConcurrentHashMap<>(); // checked names
  private final Set<String> declared = ConcurrentHashMap.newKeySet(); // on this connection
  private final Set<String> everDeclared = ConcurrentHashMap.newKeySet(); // since construction
  private final Set<String> warnedLimits = ConcurrentHashMap.newKeySet(); // made without the limit

  /**
   * @param lookedInto whether an operator looks into the queue of an address (a dead-letter
   *     address)
   */
  AmqpQueues(BrokerLink link, QueueNames names, Predicate<MailAddress> lookedInto) {
    this.link = link;
    this.names = names;
    this.lookedInto = lookedInto;
  }

  QueueNames names() {
    return names;
  }

  private static Map<String, Object> quorum() {
    Map<String, Object> arguments = new LinkedHashMap<>();
    arguments.put("x-queue-type", "quorum");
    return arguments;
  }

  /** Declares the queue of {@code address} (durable, quorum) once per connection. */
  String declare(MailAddress address) {
    String queue = nameOf(address);
    return lookedInto.test(address) ? declareLookedInto(queue) : declareOnce(queue, quorum());
  }

  /**
   * A queue an operator looks into, with a delivery limit looks cannot reach. One an earlier
   * version made without it is used as it is, with a warning: on RabbitMQ 4 its default limit
   * applies.
   */
  private String declareLookedInto(String queue) {
    Map<String, Object> arguments = quorum();
    arguments.put("x-delivery-limit", LOOKED_INTO_DELIVERY_LIMIT);
    try {
      return declareOnce(queue, arguments);
    } catch (BrokerCallFailed e) {
      if (!e.inequivalentDeliveryLimit) {
        throw e;
      }
      if (warnedLimits.add(queue)) {
        LOG.warning(
            () ->
                "RabbitMQ queue "
                    + queue
                    + " was declared without x-delivery-limit "
                    + LOOKED_INTO_DELIVERY_LIMIT
                    + " (by an earlier version): each look of the console counts as a delivery,"
                    + " and RabbitMQ 4 drops a quorum queue's message after 20 by default. Give it"
                    + " a policy with delivery-limit, or drain and delete it so it is declared"
                    + " again.");
      }
      return declareOnce(queue, quorum());
    }
  }

  /** The name of the queue of {@code address}, declared or not. */
  String nameOf(MailAddress address) {
    return queueNames.computeIfAbsent(address, names::queue);
  }

  /** Declares a durable queue unless this connection already did; returns its name. */
  private String declareOnce(String queue, Map<String, Object> arguments) {
    if (!declared.contains(queue)) {
      link.admin(channel -> channel.queueDeclare(queue, true, false, false, arguments));
      declared.add(queue);
      everDeclared.add(queue);
    }
    return queue;
  }

  /**
   * Declares a retry queue: messages wait there {@code delay} ms, then RabbitMQ dead-letters them
   * back to {@code queue}. At-least-once dead-lettering (quorum only) keeps a copy the target
   * cannot take yet instead of dropping it.
   */
  String declareRetry(String queue, long delay) {
    Map<String, Object> arguments = quorum();
    arguments.put("x-message-ttl", delay);
    arguments.put("x-dead-letter-exchange", "");
    arguments.put("x-dead-letter-routing-key", queue);
    arguments.put("x-dead-letter-strategy", "at-least-once");
    arguments.put("x-overflow", "reject-publish");
    return declareOnce(QueueNames.retry(queue, delay), arguments);
  }

  String declareParked(String queue) {
    return declareLookedInto(QueueNames.parked(queue));
  }

  /** A passive declare: the queue's counts, or empty when it does not exist. */
  Optional<AMQP.Queue.DeclareOk> inspect(String queue) {
    try {
      return Optional.of(link.admin(channel -> channel.queueDeclarePassive(queue)));
    } catch (BrokerCallFailed e) {
      if (e.notFound) {
        declared.remove(queue);
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Messages in {@code queue}, 0 when it does not exist. */
  long count(String queue) {
    return inspect(queue).map(ok -> (long) ok.getMessageCount()).orElse(0L);
  }

  /**
   * Purges the address's queue and its retry queues (what the status counts as unread), never a
   * delivery held unacked: those settle on their own. Returns how many messages went.
   */
  int purgeQueued(MailAddress address) {
    String queue = declare(address);
    long dropped = link.admin(channel -> channel.queuePurge(queue)).getMessageCount();
    for (long delay : names().retryDelaysMillis()) {
      String retry = QueueNames.retry(queue, delay);
      if (inspect(retry).isPresent()) {
        dropped += link.admin(channel -> channel.queuePurge(retry)).getMessageCount();
      }
    }
    return (int) Math.min(Integer.MAX_VALUE, dropped);
  }

  /** The queue must be declared again before its next use (it may have been deleted). */
  void forget(String queue) {
    declared.remove(queue);
  }

  /** Purges every queue this connection declared except parked ones; returns how many went. */
  long purgeAll() {
    long dropped = 0;
    for (String queue : List.copyOf(declared)) {
      if (queue.endsWith(".parked")) {
        continue;
      }
      try {
        dropped += link.admin(channel -> channel.queuePurge(queue)).getMessageCount();
      } catch (BrokerCallFailed e) {
        declared.remove(queue);
      }
    }
    return dropped;
  }

  /** A new connection declares again. */
  void connectionClosed() {
    declared.clear();
  }

  /** Every queue declared since construction, across restarts (for tests that clean up). */
  Set<String> everDeclared() {
    return Set.copyOf(everDeclared);
  }
}
