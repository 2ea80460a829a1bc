package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** The conformance kit against a real Kafka broker, topics created by the provider. */
class KafkaProviderContractIT extends ProviderContract {

  @Override
  protected Transport newTransport() {
    KafkaSettings settings =
        KafkaSettings.defaults()
            .withBootstrapServers(KafkaBroker.shared().bootstrapServers())
            .withTopicCreation(1);
    return new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler());
  }

  @Override
  protected Duration eventually() {
    return Duration.ofSeconds(15);
  }

  private static final Duration BOUND = Duration.ofSeconds(2);

  /**
   * The publish-bound case: the test broker (in this JVM, so it cannot be paused) is stopped while
   * the post waits; the producer holds the post until the bound runs out.
   */
  @Override
  protected Optional<Unanswering> unanswering() {
    KafkaSettings settings =
        KafkaSettings.defaults()
            .withBootstrapServers(KafkaBroker.shared().bootstrapServers())
            .withTopicCreation(1)
            .withPublishTimeout(BOUND);
    MailboxProvider bounded =
        MailboxProvider.of(new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    bounded.start();
    KafkaBroker broker = KafkaBroker.shared();
    return Optional.of(Unanswering.of(bounded, BOUND, broker::stop, broker::start, () -> {}));
  }
}
