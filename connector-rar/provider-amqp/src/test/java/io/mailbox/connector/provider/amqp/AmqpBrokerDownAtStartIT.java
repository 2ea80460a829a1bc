package io.mailbox.connector.provider.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A broker that is down when the adapter starts delays only amqp: (issue 19): the provider starts,
 * reports itself unreachable, refuses posts with a coded error that names the broker (never its
 * password), keeps subscriptions, and connects and serves them once the broker answers.
 */
class AmqpBrokerDownAtStartIT {
  @Test
  void theProviderStartsWithoutItsBrokerAndConnectsWhenTheBrokerComesBack() throws Exception {
    MailAddress inbox =
        MailAddress.parse("amqp://it@rabbit/down-at-start-" + UUID.randomUUID().toString());
    try (BrokerDoor door = new BrokerDoor()) {
      AmqpSettings settings =
          AmqpSettings.defaults().withUri("amqp://guest:guest@127.0.0.1:" + door.port() + "/%2F");
      MailboxProvider provider =
          MailboxProvider.of(
              new AmqpProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
      provider.start(); // must not throw: the broker's absence is not the adapter's failure
      try {
        assertThat(provider.reachability()).isEqualTo(io.mailbox.connector.api.Reachability.DOWN);
        List<MailMessage> received = new CopyOnWriteArrayList<>();
        provider.subscribe(inbox, MailboxSubscriber.of(received::add));

        assertThatThrownBy(() -> provider.post(MailMessage.to(inbox).body("early").build()))
            .isInstanceOf(MailboxException.class)
            .satisfies(
                e ->
                    assertThat(((MailboxException) e).errorCode())
                        .isEqualTo(ErrorCode.CONNECTION_UNAVAILABLE))
            .hasMessageContaining("127.0.0.1:" + door.port())
            .hasMessageNotContaining("guest");

        door.open(5672); // the broker is back
        Eventually.await(
            "connected",
            Duration.ofSeconds(20),
            () -> provider.reachability() == io.mailbox.connector.api.Reachability.UP);
        provider.post(MailMessage.to(inbox).body("after").build());
        Eventually.await(
            "the subscription opened during the outage receives",
            Duration.ofSeconds(10),
            () -> received.stream().anyMatch(m -> m.body().equals("after")));
      } finally {
        RabbitMq.delete(((AmqpProvider) provider.transport()).declaredQueues());
        provider.stop(false);
      }
    }
  }
}
