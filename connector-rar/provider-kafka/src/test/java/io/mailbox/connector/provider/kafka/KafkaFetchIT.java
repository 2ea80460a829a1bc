package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fetching the way {@code @Incoming} channels do (leased, polling), with the posts coming from
 * another server: what is posted after a fetch found nothing is found by a later fetch. The defect
 * this pins: the reader judged "nothing more" by the consumer's last fetched high watermark, stale
 * while its partitions are paused between fetches, so every later fetch returned nothing.
 */
class KafkaFetchIT {
  private final List<MailboxProvider> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(provider -> provider.stop(true));
  }

  @Test
  void recordsPostedElsewhereAfterAnEmptyFetchAreFoundByTheNextFetches() throws Exception {
    MailAddress inbox =
        MailAddress.parse(
            "kafka://billing@shop/polled-" + UUID.randomUUID().toString().substring(0, 8));
    MailboxProvider consumer = provider();
    MailboxProvider poster = provider();
    assertThat(consumer.fetch(inbox, FetchOptions.leased().limit(16))).isEmpty();
    Thread.sleep(1_500); // the reader polls its paused partitions meanwhile

    for (int i = 0; i < 20; i++) {
      poster.post(MailMessage.to(inbox).id("m-" + i).body("{\"n\":" + i + "}").build());
    }
    List<String> received = new ArrayList<>();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (received.size() < 20 && Instant.now().isBefore(deadline)) {
      for (Delivery delivery : consumer.fetch(inbox, FetchOptions.leased().limit(16))) {
        received.add(delivery.message().id());
        assertThat(delivery.ack()).isTrue();
      }
      Thread.sleep(100); // a channel's poll interval
    }

    assertThat(received).as("every record, once, in post order").hasSize(20).startsWith("m-0");
    assertThat(received).doesNotHaveDuplicates();
  }

  @Test
  void aSubscriptionRefusedForAMissingTopicLeavesNoSubscriberBehind() throws Exception {
    MailAddress later =
        MailAddress.parse(
            "kafka://billing@shop/later-" + UUID.randomUUID().toString().substring(0, 8));
    KafkaSettings noCreation =
        KafkaSettings.defaults()
            .withBootstrapServers(KafkaBroker.shared().bootstrapServers())
            .withUnknownTopicBudget(Duration.ZERO);
    MailboxProvider strict = started(noCreation);
    List<String> zombie = new java.util.concurrent.CopyOnWriteArrayList<>();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                strict.subscribe(
                    later,
                    io.mailbox.connector.kernel.MailboxSubscriber.of(m -> zombie.add(m.id()))))
        .hasMessageStartingWith(io.mailbox.connector.api.ErrorCode.UNKNOWN_TOPIC.code());

    MailboxProvider creating = provider(); // creates the topic with its first post
    creating.post(MailMessage.to(later).id("after").body("{}").build());
    List<String> live = new java.util.concurrent.CopyOnWriteArrayList<>();
    strict.subscribe(
        later, io.mailbox.connector.kernel.MailboxSubscriber.of(m -> live.add(m.id())));
    creating.post(MailMessage.to(later).id("second").body("{}").build());
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (live.isEmpty() && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
    }
    Thread.sleep(500);

    assertThat(live).as("the subscription made once the topic exists").isNotEmpty();
    assertThat(zombie).as("the refused subscription receives nothing").isEmpty();
  }

  @Test
  void aServerWhoseLastSubscriberLeftReleasesItsPartitionsToTheOthers() throws Exception {
    MailAddress shared =
        MailAddress.parse(
            "kafka://billing@shop/shared-" + UUID.randomUUID().toString().substring(0, 8));
    KafkaProvider leaving =
        new KafkaProvider(creating(), Clock.systemUTC(), new ExecutorScheduler());
    leaving.releaseIdleReadersAfter(Duration.ofSeconds(1));
    MailboxProvider first = MailboxProvider.of(leaving);
    first.start();
    started.add(first);
    io.mailbox.connector.kernel.Subscription gone =
        first.subscribe(shared, io.mailbox.connector.kernel.MailboxSubscriber.of(m -> {}));
    Thread.sleep(2_000); // the first server joined the group and holds the topic's one partition
    gone.unsubscribe();

    List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
    MailboxProvider second = provider();
    second.subscribe(
        shared, io.mailbox.connector.kernel.MailboxSubscriber.of(m -> received.add(m.id())));
    for (int i = 0; i < 10; i++) {
      second.post(MailMessage.to(shared).id("r-" + i).body("{}").build());
    }
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (received.size() < 10 && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
    }

    assertThat(received)
        .as("the records reach the server with a subscriber once the other let the partition go")
        .hasSize(10);
  }

  private static KafkaSettings creating() {
    return KafkaSettings.defaults()
        .withBootstrapServers(KafkaBroker.shared().bootstrapServers())
        .withTopicCreation(1);
  }

  private MailboxProvider provider() {
    return started(creating());
  }

  private MailboxProvider started(KafkaSettings settings) {
    MailboxProvider provider =
        MailboxProvider.of(new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    started.add(provider);
    return provider;
  }
}
