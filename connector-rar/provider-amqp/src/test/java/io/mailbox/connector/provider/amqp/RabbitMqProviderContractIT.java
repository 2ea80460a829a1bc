package io.mailbox.connector.provider.amqp;

import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;

/** {@code amqp:} keeps the provider contract against the real RabbitMQ on this machine. */
class RabbitMqProviderContractIT extends ProviderContract {
  private final Set<String> created = new HashSet<>();

  @Override
  protected Transport newTransport() {
    return new AmqpProvider(AmqpSettings.defaults(), Clock.systemUTC(), new ExecutorScheduler());
  }

  // Runs before the base class stops the provider (which forgets what it declared).
  @AfterEach
  void forgetQueues() {
    created.addAll(((AmqpProvider) provider.transport()).declaredQueues());
    RabbitMq.delete(created);
  }
}
