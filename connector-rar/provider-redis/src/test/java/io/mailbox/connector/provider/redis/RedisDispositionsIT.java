package io.mailbox.connector.provider.redis;

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
import redis.clients.jedis.Jedis;

/**
 * The kernel's dispositions on Redis Streams beyond the kit: the delivery cap dead-letters an entry
 * Redis keeps redelivering (its count decides), a subscriber's unhandled entry comes back after the
 * retry delay as its next round, and a dead-letter write that fails keeps the source pending until
 * it can be written.
 */
class RedisDispositionsIT {
  private final String prefix = "dispositions-" + UUID.randomUUID().toString().substring(0, 8);
  private final MailAddress jobs = MailAddress.parse("redis://jobs@shop/work");
  private final String stream = prefix + ":{jobs@shop/work}";
  private MailboxProvider provider;

  @BeforeEach
  void start() {
    RedisSettings settings =
        RedisSettings.defaults()
            .withUrl(RedisServer.url())
            .withKeyPrefix(prefix)
            .withMaxDeliveries(3);
    provider =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
  }

  @AfterEach
  void stop() {
    provider.stop(false);
    RedisServer.deleteKeys(prefix);
  }

  @Test
  void anEntryHandedOutUpToTheCapIsDeadLetteredAndAcknowledged() {
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
    List<Delivery> letters = provider.fetch(dead, FetchOptions.autoAck());
    assertThat(letters).hasSize(1);
    MailMessage letter = letters.get(0).message();
    assertThat(letter.id()).isEqualTo("poison");
    assertThat(letter.header(SystemHeaders.DEAD_LETTER_REASON)).contains("max-deliveries");
    assertThat(letter.header(SystemHeaders.DEAD_LETTER_TOPIC)).contains(jobs.toString());
    assertThat(provider.status(jobs).unreadCount()).isZero();
  }

  @Test
  void aSubscribersUnhandledEntryComesBackAfterTheRetryDelayAsItsNextRound() {
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
        "RedisDispositionsIT: redelivered %d ms after the unhandled round%n", waitedMillis);
    assertThat(rounds).containsExactly("1", "2");
    assertThat(waitedMillis)
        .as("the kernel's first retry delay (1 s), then a reclaim pass")
        .isGreaterThanOrEqualTo(900);
    Eventually.await(
        "nothing left", Duration.ofSeconds(10), () -> provider.status(jobs).unreadCount() == 0);
  }

  @Test
  void aDeadLetterThatCannotBeWrittenKeepsTheSourcePendingUntilItCan() {
    String deadStream = stream + ".dead.mailbox";
    provider.post(MailMessage.to(jobs).id("poison").body("{}").build());
    Delivery delivery = provider.fetch(jobs, FetchOptions.leased()).get(0);
    try (Jedis plain = RedisServer.plain()) {
      plain.set(deadStream, "not a stream"); // every XADD to it fails: WRONGTYPE

      try {
        delivery.settle(Disposition.DISCARD);
      } catch (RuntimeException refused) {
        assertThat(refused).hasMessageStartingWith("MBX-2003").hasMessageContaining("WRONGTYPE");
      }
      assertThat(plain.xpending(stream, "mailbox").getTotal()).as("the source").isEqualTo(1);
      assertThat(provider.status(jobs).unreadCount()).as("handed back").isEqualTo(1);

      plain.del(deadStream);
    }
    List<Delivery> again = new ArrayList<>();
    Eventually.await(
        "the source handed out again",
        Duration.ofSeconds(10),
        () -> again.addAll(provider.fetch(jobs, FetchOptions.leased())) || !again.isEmpty());
    assertThat(again.get(0).message().id()).isEqualTo("poison");
    assertThat(again.get(0).settle(Disposition.DISCARD)).isTrue();
    MailAddress dead = provider.deadLetterTopic(jobs).orElseThrow();
    assertThat(provider.fetch(dead, FetchOptions.autoAck()))
        .extracting(d -> d.message().id())
        .containsExactly("poison");
  }
}
