package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kernel's dispositions on JetStream beyond the kit: the delivery cap dead-letters a message
 * the server keeps redelivering (its count, not ours, decides), and a subscriber's unhandled
 * message comes back after the retry delay as its next round.
 */
class NatsDispositionsIT {
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final String stream = "DISPOSITIONS_" + run;
  private final MailAddress jobs = MailAddress.parse("nats://jobs@shop/work");
  private MailboxProvider provider;

  @BeforeEach
  void start() {
    NatsSettings settings =
        NatsSettings.defaults()
            .withUrl(NatsServer.url())
            .withCreatedStream(stream, "dispositions-" + run)
            .withMaxDeliveries(3);
    provider =
        MailboxProvider.of(new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
  }

  @AfterEach
  void stop() throws Exception {
    provider.stop(false);
    NatsServer.deleteStreams(stream);
  }

  @Test
  void aMessageHandedOutUpToTheCapIsDeadLetteredAndTerminated() {
    provider.post(MailMessage.to(jobs).id("poison").body("{}").build());
    List<String> rounds = new ArrayList<>();
    Eventually.await(
        "three unhandled deliveries",
        Duration.ofSeconds(20),
        () -> {
          for (Delivery delivery : provider.fetch(jobs, FetchOptions.leased())) {
            rounds.add(delivery.message().header(SystemHeaders.ROUND).orElse("?"));
            delivery.settle(Disposition.UNHANDLED);
          }
          return rounds.size() == 3;
        });
    assertThat(rounds).containsExactly("1", "2", "3");

    // The fourth delivery is over the cap: dead-lettered, never handed out.
    assertThat(provider.fetch(jobs, FetchOptions.leased())).isEmpty();
    MailAddress dead = provider.deadLetterTopic(jobs).orElseThrow();
    List<Delivery> letters = new ArrayList<>();
    Eventually.await(
        "the dead letter",
        Duration.ofSeconds(10),
        () -> letters.addAll(provider.fetch(dead, FetchOptions.autoAck())) || !letters.isEmpty());
    MailMessage letter = letters.get(0).message();
    assertThat(letter.id()).isEqualTo("poison");
    assertThat(letter.header(SystemHeaders.DEAD_LETTER_REASON)).contains("max-deliveries");
    assertThat(letter.header(SystemHeaders.DEAD_LETTER_TOPIC)).contains(jobs.toString());
    Eventually.await(
        "the source terminated",
        Duration.ofSeconds(10),
        () -> provider.status(jobs).unreadCount() == 0);
  }

  @Test
  void aSubscribersUnhandledMessageComesBackAfterTheRetryDelayAsItsNextRound() {
    List<String> rounds = new CopyOnWriteArrayList<>();
    List<Long> at = new CopyOnWriteArrayList<>();
    provider.subscribe(
        jobs,
        MailboxSubscriber.of(
            m -> {
              rounds.add(m.header(SystemHeaders.ROUND).orElse("?"));
              at.add(System.nanoTime());
              if (rounds.size() == 1) {
                throw new RetriableDeliveryException("the ledger is away");
              }
            }));
    provider.post(MailMessage.to(jobs).id("retry-me").body("{}").build());
    Eventually.await("handled the second time", Duration.ofSeconds(15), () -> rounds.size() == 2);
    long waitedMillis = (at.get(1) - at.get(0)) / 1_000_000;
    System.out.printf(
        "NatsDispositionsIT: redelivered %d ms after the unhandled round%n", waitedMillis);
    assertThat(rounds).containsExactly("1", "2");
    assertThat(waitedMillis)
        .as("the kernel's first retry delay (1 s), held by the server")
        .isGreaterThanOrEqualTo(900);
    Eventually.await(
        "nothing left", Duration.ofSeconds(10), () -> provider.status(jobs).unreadCount() == 0);
  }
}
