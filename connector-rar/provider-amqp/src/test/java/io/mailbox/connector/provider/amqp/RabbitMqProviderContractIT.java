package io.mailbox.connector.provider.amqp;

import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
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

  private static final Duration BOUND = Duration.ofSeconds(1);

  /**
   * The publish-bound case: a memory alarm makes RabbitMQ stop reading from publishing connections
   * (they stay open, nothing is confirmed) until it is cleared.
   */
  @Override
  protected Optional<Unanswering> unanswering() {
    AmqpProvider transport =
        new AmqpProvider(
            AmqpSettings.defaults().withPublishTimeout(BOUND),
            Clock.systemUTC(),
            new ExecutorScheduler());
    MailboxProvider bounded = MailboxProvider.of(transport);
    bounded.start();
    // Read while the provider runs: stopping it forgets what it declared.
    Set<String> queues = new HashSet<>();
    return Optional.of(
        Unanswering.of(
            bounded,
            BOUND,
            () -> {
              queues.addAll(transport.declaredQueues());
              RabbitMq.blockPublishers();
            },
            RabbitMq::unblockPublishers,
            () -> RabbitMq.delete(queues)));
  }
}
