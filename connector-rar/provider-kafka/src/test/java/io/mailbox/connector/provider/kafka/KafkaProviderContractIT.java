package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;
import java.time.Duration;

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
}
