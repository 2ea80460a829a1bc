package io.mailbox.connector.provider.amqp;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/**
 * What the {@code amqp:} tests start from: providers on the machine's RabbitMQ, stopped after each
 * test with the queues they declared deleted, and addresses of this run only.
 */
abstract class AmqpProviderFixture {
  final String run = UUID.randomUUID().toString().substring(0, 8);
  final List<MailboxProvider> providers = new ArrayList<>();
  final Set<String> queues = new HashSet<>();

  MailboxProvider started(AmqpSettings settings) {
    MailboxProvider provider =
        MailboxProvider.of(new AmqpProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    providers.add(provider);
    return provider;
  }

  MailAddress address(String name) {
    return MailAddress.parse("amqp://it@rabbit/" + name + "-" + run);
  }

  @AfterEach
  void cleanUp() {
    for (MailboxProvider provider : providers) {
      queues.addAll(((AmqpProvider) provider.transport()).declaredQueues());
      provider.stop(false);
    }
    RabbitMq.delete(queues);
  }

  static void await(String what, java.util.function.BooleanSupplier condition) {
    Eventually.await(what, Duration.ofSeconds(10), condition);
  }
}
