package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The broker stops and starts again in the middle of a 10,000-record run posted by eight clients:
 * every post Kafka acknowledged is consumed; posts made while it was down fail with a coded error
 * (and are not counted as acknowledged), and posting works again once it is back. Once for an
 * ordered address (a consumer group) and once for a queue address (a share group: the records its
 * member held when the broker went are acquired again).
 */
class KafkaBrokerRestartIT {
  private static final int RECORDS = 10_000;
  private static final int CLIENTS = 8;
  private static final int RESTART_AT = 3_000;

  private final KafkaBroker broker = KafkaBroker.shared();
  private final String suffix = UUID.randomUUID().toString().substring(0, 8);
  private final KafkaSettings settings =
      KafkaSettings.defaults()
          .withBootstrapServers(broker.bootstrapServers())
          .withTopicCreation(2)
          .withPublishTimeout(Duration.ofSeconds(3))
          .withQueueAddresses("orders@shop/restart-queue-*");

  @Test
  void everyAcknowledgedPostIsConsumedAcrossABrokerRestart() throws Exception {
    run(MailAddress.parse("kafka://orders@shop/restart-" + suffix), () -> true);
  }

  @Test
  void everyAcknowledgedPostToAQueueIsConsumedAcrossABrokerRestart() throws Exception {
    MailAddress queue = MailAddress.parse("kafka://orders@shop/restart-queue-" + suffix);
    String group =
        TopicNames.derivedGroup(
            settings.defaultGroup(), new TopicNames(settings.topicPrefix()).topic(queue));
    // A share group starts at the records posted after its member joined: posting waits for it.
    run(queue, () -> broker.assignedShareMembers(group) > 0);
  }

  private void run(MailAddress orders, BooleanSupplier readyToPost) throws Exception {
    MailboxProvider provider =
        MailboxProvider.of(new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    Set<String> consumed = ConcurrentHashMap.newKeySet();
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger twice = new AtomicInteger();
    try {
      provider.subscribe(
          orders,
          MailboxSubscriber.of(
              m -> {
                if (!consumed.add(m.id())) {
                  twice.incrementAndGet();
                }
              }));
      Eventually.await("the consumer is ready", Duration.ofSeconds(60), readyToPost);
      // Eight clients: one poster waited for each acknowledgement (the producer's linger included)
      // and made this run a minute long. Posts after the restart's start wait until the broker is
      // down, so the run always spans the outage (eight clients could finish before it stops).
      AtomicInteger next = new AtomicInteger();
      CountDownLatch stopped = new CountDownLatch(1);
      Thread restart =
          new Thread(
              () -> {
                try {
                  broker.stop();
                  stopped.countDown();
                  Thread.sleep(6_000);
                  broker.start();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      Runnable client =
          () -> {
            int i;
            while ((i = next.getAndIncrement()) < RECORDS) {
              if (i > RESTART_AT && !awaitQuietly(stopped)) {
                return;
              }
              String id = "o-" + i;
              try {
                provider.post(MailMessage.to(orders).id(id).body("{}").build());
                acknowledged.add(id);
              } catch (MailboxException down) {
                refused.incrementAndGet();
              }
              if (i == RESTART_AT) {
                restart.start();
              }
            }
          };
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        Thread thread = new Thread(client, "restart-it-client-" + c);
        thread.start();
        clients.add(thread);
      }
      for (Thread thread : clients) {
        thread.join();
      }
      restart.join();

      Eventually.await(
          "every acknowledged post is consumed",
          Duration.ofSeconds(120),
          () -> consumed.containsAll(acknowledged));
      System.out.printf(
          "KafkaBrokerRestartIT (%s): %d posts acknowledged, %d refused while the broker was away,"
              + " %d consumed, %d delivered again%n",
          orders, acknowledged.size(), refused.get(), consumed.size(), twice.get());
      assertThat(consumed).containsAll(acknowledged);
      assertThat(acknowledged.size()).isGreaterThan(RECORDS / 2);
      assertThat(refused.get()).as("posts refused while the broker was away").isPositive();
    } finally {
      provider.stop(true);
    }
  }

  private static boolean awaitQuietly(CountDownLatch latch) {
    try {
      return latch.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
