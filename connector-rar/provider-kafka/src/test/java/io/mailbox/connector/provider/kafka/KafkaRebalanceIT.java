package io.mailbox.connector.provider.kafka;

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
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two provider instances (two servers) in one consumer group share a four-partition topic; the
 * second joins in the middle of 10,000 records and the first leaves later — two rebalances. No
 * record is lost; a duplicate is allowed only where at-least-once allows it (a record handed out
 * but not committed when its partition moved), and is counted.
 */
class KafkaRebalanceIT {
  private static final int RECORDS = 10_000;

  @Test
  void recordsSurviveAMemberJoiningAndOneLeaving() throws Exception {
    KafkaSettings settings =
        KafkaSettings.defaults()
            .withBootstrapServers(KafkaBroker.shared().bootstrapServers())
            .withTopicCreation(4);
    MailAddress orders =
        MailAddress.parse(
            "kafka://orders@shop/rebalance-" + UUID.randomUUID().toString().substring(0, 8));
    MailboxProvider first = provider(settings);
    MailboxProvider second = provider(settings);
    MailboxProvider sender = provider(settings);
    Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    AtomicInteger byFirst = new AtomicInteger();
    AtomicInteger bySecond = new AtomicInteger();
    try {
      first.subscribe(orders, MailboxSubscriber.of(m -> count(seen, m, byFirst)));
      // Posts are paced (100 every 100 ms) so that the rebalances happen while records flow.
      boolean firstLeft = false;
      List<MailMessage> batch = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        batch.add(MailMessage.to(orders).id("o-" + i).body("{\"n\":" + i + "}").build());
        if (batch.size() == 100) {
          sender.postAll(batch);
          batch.clear();
          Thread.sleep(100);
        }
        if (i == 3_000) {
          second.subscribe(orders, MailboxSubscriber.of(m -> count(seen, m, bySecond)));
        }
        if (i >= 7_000 && !firstLeft && bySecond.get() > 0) {
          first.stop(false); // leaves the group: its partitions move to the second
          firstLeft = true;
        }
      }
      sender.postAll(batch);
      assertThat(firstLeft).as("the second member got records before the last 3,000").isTrue();

      Eventually.await("all 10,000 arrived", Duration.ofSeconds(90), () -> seen.size() == RECORDS);
      long duplicates = seen.values().stream().filter(c -> c.get() > 1).count();
      System.out.printf(
          "KafkaRebalanceIT: %d records, %d received by the first member, %d by the second, %d"
              + " delivered more than once%n",
          RECORDS, byFirst.get(), bySecond.get(), duplicates);
      assertThat(seen).hasSize(RECORDS);
      assertThat(byFirst.get()).isPositive();
      assertThat(bySecond.get()).isPositive();
      Eventually.await(
          "nothing left unread for the group",
          Duration.ofSeconds(30),
          () -> second.status(orders).unreadCount() == 0);
    } finally {
      second.stop(true);
      sender.stop(false);
    }
  }

  private static void count(Map<String, AtomicInteger> seen, MailMessage m, AtomicInteger by) {
    seen.computeIfAbsent(m.id(), id -> new AtomicInteger()).incrementAndGet();
    by.incrementAndGet();
  }

  private static MailboxProvider provider(KafkaSettings settings) {
    MailboxProvider provider =
        MailboxProvider.of(new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    return provider;
  }
}
