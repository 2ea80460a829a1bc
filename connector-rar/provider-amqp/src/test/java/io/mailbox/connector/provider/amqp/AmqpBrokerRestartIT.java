package io.mailbox.connector.provider.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * RabbitMQ is stopped ({@code rabbitmqctl stop_app}) and started again in the middle of a
 * 10,000-message run: every message whose post was confirmed is consumed; duplicates only where
 * at-least-once allows them (deliveries in flight when the connection dropped).
 */
class AmqpBrokerRestartIT {
  private static final Logger LOG = Logger.getLogger(AmqpBrokerRestartIT.class.getName());
  private static final int MESSAGES = 10_000;
  private static final int PER_CALL = 50;

  private MailboxProvider provider;

  @AfterEach
  void cleanUp() throws Exception {
    RabbitMq.rabbitmqctl("start_app"); // idempotent: never leave the broker down
    if (provider != null) {
      Set<String> queues = ((AmqpProvider) provider.transport()).declaredQueues();
      provider.stop(false);
      RabbitMq.delete(queues);
    }
  }

  @Test
  void everyConfirmedMessageIsConsumedAcrossABrokerRestart() throws Exception {
    provider =
        MailboxProvider.of(
            new AmqpProvider(
                AmqpSettings.defaults().withPublishTimeout(Duration.ofSeconds(5)),
                Clock.systemUTC(),
                new ExecutorScheduler()));
    provider.start();
    MailAddress inbox =
        MailAddress.parse(
            "amqp://it@rabbit/restart-" + UUID.randomUUID().toString().substring(0, 8));
    Set<String> consumed = ConcurrentHashMap.newKeySet();
    AtomicInteger deliveries = new AtomicInteger();
    provider.subscribe(
        inbox,
        MailboxSubscriber.of(
            m -> {
              deliveries.incrementAndGet();
              consumed.add(m.id());
            }));

    Set<String> confirmed = ConcurrentHashMap.newKeySet();
    AtomicInteger failedCalls = new AtomicInteger();
    // Posting is fast: the poster holds after the first third until the broker is really down, so
    // the rest of the run is posted across the outage, not before it.
    java.util.concurrent.CountDownLatch brokerDown = new java.util.concurrent.CountDownLatch(1);

    ExecutorService poster = Executors.newSingleThreadExecutor();
    Future<?> posting =
        poster.submit(
            () -> {
              for (int start = 0; start < MESSAGES; start += PER_CALL) {
                if (start == 3_000) {
                  brokerDown.await(60, TimeUnit.SECONDS);
                }
                List<MailMessage> call = new ArrayList<>();
                for (int i = start; i < start + PER_CALL; i++) {
                  call.add(MailMessage.to(inbox).id("m-" + i).body("{\"n\":" + i + "}").build());
                }
                // The producer's side of at-least-once: a call that failed is posted again.
                while (true) {
                  try {
                    provider.postAll(call);
                    call.forEach(m -> confirmed.add(m.id()));
                    break;
                  } catch (RuntimeException e) {
                    failedCalls.incrementAndGet();
                    Thread.sleep(200);
                  }
                }
              }
              return null;
            });

    Eventually.await(
        "a third of the run confirmed", Duration.ofSeconds(60), () -> confirmed.size() >= 3_000);
    RabbitMq.rabbitmqctl("stop_app");
    Eventually.await(
        "the provider sees the broker gone",
        Duration.ofSeconds(20),
        () -> provider.reachability() == io.mailbox.connector.api.Reachability.DOWN);
    brokerDown.countDown();
    Thread.sleep(2_000);
    RabbitMq.rabbitmqctl("start_app");
    Eventually.await(
        "the provider sees the broker back",
        Duration.ofSeconds(60),
        () -> provider.reachability() == io.mailbox.connector.api.Reachability.UP);

    posting.get(180, TimeUnit.SECONDS);
    poster.shutdown();
    Eventually.await(
        "every confirmed message was consumed",
        Duration.ofSeconds(120),
        () -> consumed.containsAll(confirmed));

    assertThat(confirmed).hasSize(MESSAGES);
    assertThat(consumed).containsAll(confirmed);
    assertThat(failedCalls.get()).as("posts failed while the broker was down").isPositive();
    assertThat((Long) provider.status(inbox).extensions().get("amqp.recoveries")).isPositive();
    int duplicates = deliveries.get() - consumed.size();
    LOG.info(
        () ->
            "Broker restart: "
                + confirmed.size()
                + " confirmed, "
                + consumed.size()
                + " consumed, "
                + duplicates
                + " duplicate deliveries, "
                + failedCalls.get()
                + " failed post calls");
    Eventually.await(
        "nothing left in flight",
        Duration.ofSeconds(30),
        () -> provider.status(inbox).inFlightCount() == 0);
  }
}
