package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;
import java.time.Duration;

/**
 * The conformance kit against a real Kafka broker with every address read as a queue: share groups
 * (KIP-932), per-record acknowledgements, topics created by the provider.
 */
class KafkaQueueContractIT extends ProviderContract {

  @Override
  protected Transport newTransport() {
    KafkaSettings settings =
        KafkaSettings.defaults()
            .withBootstrapServers(KafkaBroker.shared().bootstrapServers())
            .withTopicCreation(1)
            .withQueueAddresses("*");
    return new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler());
  }

  @Override
  protected Duration eventually() {
    return Duration.ofSeconds(15);
  }
}
