package io.mailbox.connector.provider.amqp;

import static io.mailbox.connector.provider.amqp.AmqpProvider.SCHEME;

import com.rabbitmq.client.AMQP;
import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.LeaseTable;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What an operator sees of an {@code amqp:} address: queued = its queue plus its retry queues (a
 * passive declare each), in flight = leases plus broadcasts being settled here, and parked,
 * consumer and reconnection figures. Offline while RabbitMQ does not answer.
 */
final class AmqpStatus {
  private final BrokerLink link;
  private final AmqpQueues queues;
  private final DeliveryReader reader;

  AmqpStatus(BrokerLink link, AmqpQueues queues, DeliveryReader reader) {
    this.link = link;
    this.queues = queues;
    this.reader = reader;
  }

  /**
   * @param leased this process's leases of the address
   * @param broadcasts deliveries to local subscribers not yet settled
   */
  AddressStatus of(
      MailAddress address,
      LeaseTable.Census leased,
      long broadcasts,
      int subscribers,
      Instant lastActivity) {
    String queue = queues.names().queue(address);
    long inFlight = leased.inFlight() + broadcasts;
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".queue", queue);
    extensions.put(SCHEME + ".overdueInFlightCount", leased.overdue());
    extensions.put(SCHEME + ".subscriberCount", subscribers);
    if (!link.isConnected() || !link.reachable()) {
      extensions.put(SCHEME + ".reachable", false);
      return new AddressStatus(
          address, AddressState.OFFLINE, null, 0, inFlight, lastActivity, extensions);
    }
    extensions.put(SCHEME + ".reachable", true);
    Optional<AMQP.Queue.DeclareOk> main = queues.inspect(queue);
    if (main.isEmpty()) {
      return AddressStatus.unknown(address);
    }
    long waitingForRetry = 0;
    for (long delay : queues.names().retryDelaysMillis()) {
      waitingForRetry += queues.count(QueueNames.retry(queue, delay));
    }
    extensions.put(SCHEME + ".consumerCount", (long) main.get().getConsumerCount());
    extensions.put(SCHEME + ".waitingForRetryCount", waitingForRetry);
    extensions.put(SCHEME + ".parkedCount", queues.count(QueueNames.parked(queue)));
    extensions.put(SCHEME + ".droppedHeaders", reader.droppedHeaders());
    extensions.put(SCHEME + ".recoveries", link.recoveries());
    return new AddressStatus(
        address,
        AddressState.ONLINE,
        true,
        main.get().getMessageCount() + waitingForRetry,
        inFlight,
        lastActivity,
        extensions);
  }
}
