package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.Scheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * The one broker consumer of an address in this process, on its own channel with the prefetch
 * window (manual acks); every delivery goes to the provider, which hands it to all local
 * subscribers.
 */
final class BrokerConsumer {
  private static final Logger LOG = Logger.getLogger(BrokerConsumer.class.getName());

  /** Where a delivery goes. */
  interface Deliveries {
    void onDelivery(
        MailAddress address,
        Channel channel,
        long tag,
        AMQP.BasicProperties properties,
        byte[] body);
  }

  private final MailAddress address;
  private final Channel channel;
  private final String consumerTag;
  private final Scheduler scheduler;
  private final Predicate<Channel> settling;

  /**
   * @param settling whether deliveries of a channel are still being settled (it stays open for them
   *     after a cancel)
   */
  BrokerConsumer(
      BrokerLink link,
      MailAddress address,
      String queue,
      int prefetch,
      Scheduler scheduler,
      Predicate<Channel> settling,
      Deliveries deliveries) {
    this.address = address;
    this.scheduler = scheduler;
    this.settling = settling;
    try {
      channel = link.connection().createChannel();
      channel.basicQos(prefetch);
      consumerTag =
          channel.basicConsume(
              queue,
              false,
              new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(
                    String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                  deliveries.onDelivery(
                      address, channel, envelope.getDeliveryTag(), properties, body);
                }
              });
    } catch (IOException e) {
      throw new BrokerCallFailed(e);
    }
  }

  /**
   * Stops new deliveries; the channel stays open so deliveries being handled can still be acked (it
   * closes with the connection, or once they are settled).
   */
  void cancel() {
    try {
      channel.basicCancel(consumerTag);
    } catch (IOException | RuntimeException e) {
      LOG.fine(() -> "Cancelling a consumer of " + address + ": " + e.getClass().getSimpleName());
    }
    closeWhenSettled(60);
  }

  /** Closes the channel once nothing it delivered is being settled (checked once a second). */
  private void closeWhenSettled(int checksLeft) {
    if (!settling.test(channel) || checksLeft == 0) {
      close(); // anything still unacknowledged goes back to the queue
      return;
    }
    scheduler.schedule(Duration.ofSeconds(1), () -> closeWhenSettled(checksLeft - 1));
  }

  void close() {
    try {
      if (channel.isOpen()) {
        channel.close();
      }
    } catch (IOException | TimeoutException | RuntimeException e) {
      LOG.fine(() -> "Closing a consumer of " + address + ": " + e.getClass().getSimpleName());
    }
  }
}
