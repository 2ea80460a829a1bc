package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Reads RabbitMQ deliveries into copies ({@link AmqpMessages#read}) and counts the foreign headers
 * it had to drop because they were not safe to carry ({@code amqp.droppedHeaders} in the status).
 */
final class DeliveryReader {
  private static final Logger LOG = Logger.getLogger(DeliveryReader.class.getName());

  private final AtomicLong droppedHeaders = new AtomicLong();

  MailMessage read(MailAddress address, AMQP.BasicProperties properties, byte[] body) {
    AmqpMessages.Received received = AmqpMessages.read(address, properties, body);
    if (received.droppedHeaders() > 0) {
      droppedHeaders.addAndGet(received.droppedHeaders());
      LOG.fine(
          () ->
              "Dropped "
                  + received.droppedHeaders()
                  + " header(s) of a message at "
                  + address
                  + " that were not safe to carry (see amqp.droppedHeaders)");
    }
    return received.copy();
  }

  long droppedHeaders() {
    return droppedHeaders.get();
  }
}
