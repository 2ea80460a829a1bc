package io.mailbox.connector.provider.amqp;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.Receiver;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.logging.Logger;

/**
 * The subscribers of each address in this process and the one {@link BrokerConsumer} they share. A
 * subscription opened while the broker is away gets its consumer once the link connects.
 */
final class LocalSubscribers {
  private static final Logger LOG = Logger.getLogger(LocalSubscribers.class.getName());

  private final BrokerLink link;
  private final AmqpQueues queues;
  private final BiFunction<MailAddress, String, BrokerConsumer> newConsumer;
  private final Map<MailAddress, List<Receiver>> subscribers = new ConcurrentHashMap<>();
  private final Map<MailAddress, BrokerConsumer> consumers = new ConcurrentHashMap<>();

  /**
   * @param newConsumer opens the broker consumer of an address on its queue
   */
  LocalSubscribers(
      BrokerLink link,
      AmqpQueues queues,
      BiFunction<MailAddress, String, BrokerConsumer> newConsumer) {
    this.link = link;
    this.queues = queues;
    this.newConsumer = newConsumer;
  }

  /** Adds a receiver; the handle removes it, and cancels the consumer after the last one. */
  AutoCloseable add(MailAddress address, Receiver receiver) {
    List<Receiver> list = subscribers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    synchronized (link) { // the link attaches consumers under its monitor when it connects
      if (link.isConnected()) {
        String queue = queues.declare(address);
        list.add(receiver);
        try {
          consumers.computeIfAbsent(address, a -> newConsumer.apply(a, queue));
        } catch (RuntimeException e) {
          list.remove(receiver);
          throw e;
        }
      } else {
        list.add(receiver); // its broker consumer is attached once the broker answers
      }
    }
    return () -> {
      list.remove(receiver);
      if (list.isEmpty()) {
        BrokerConsumer consumer = consumers.remove(address);
        if (consumer != null) {
          consumer.cancel();
        }
      }
    };
  }

  /** Called by the link, under its monitor, once it connected. */
  void attachConsumers() {
    subscribers.forEach(
        (address, list) -> {
          if (!list.isEmpty()) {
            try {
              consumers.computeIfAbsent(address, a -> newConsumer.apply(a, queues.declare(a)));
            } catch (RuntimeException e) {
              LOG.warning(
                  () ->
                      "Could not attach the consumer of "
                          + address
                          + " after connecting: "
                          + e.getClass().getSimpleName());
            }
          }
        });
  }

  /** Closes every broker consumer (the provider stops); subscriptions stay registered. */
  void closeConsumers() {
    consumers.values().forEach(BrokerConsumer::close);
    consumers.clear();
  }

  List<Receiver> receivers(MailAddress address) {
    return List.copyOf(subscribers.getOrDefault(address, List.of()));
  }

  Set<MailAddress> addresses() {
    return subscribers.keySet();
  }
}
