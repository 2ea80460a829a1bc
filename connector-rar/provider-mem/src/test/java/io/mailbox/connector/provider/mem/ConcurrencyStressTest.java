package io.mailbox.connector.provider.mem;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Several producers and consumers on one address with manual acks and random "unhandled" answers:
 * every posted copy is handled exactly once, nothing is lost, and a copy is handed out again only
 * after it was given back.
 */
class ConcurrencyStressTest {
  private static final MailAddress WORK = MailAddress.parse("mem:workers@stress/queue");
  private static final int PRODUCERS = 4;
  private static final int PER_PRODUCER = 2_500;
  private static final int CONSUMERS = 4;

  @Test
  void everyCopyIsHandledExactlyOnceUnderContention() throws Exception {
    MailboxProvider provider = MailboxProvider.of(MemoryProvider.isolated());
    provider.start();
    int total = PRODUCERS * PER_PRODUCER;
    Set<String> posted = ConcurrentHashMap.newKeySet();
    Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    Map<String, String> holder = new ConcurrentHashMap<>();
    AtomicInteger doubleHandOuts = new AtomicInteger();
    AtomicInteger givenBack = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS + CONSUMERS);
    List<Future<?>> tasks = new ArrayList<>();

    for (int p = 0; p < PRODUCERS; p++) {
      int producer = p;
      tasks.add(
          pool.submit(
              () -> {
                go.await();
                for (int i = 0; i < PER_PRODUCER; i++) {
                  // Ids repeat across producers on purpose: bookkeeping must key on the copy.
                  MailMessage stamped =
                      provider.post(
                          MailMessage.to(WORK).id("job-" + i).body("p" + producer).build());
                  posted.add(stamped.sendId().orElseThrow());
                }
                return null;
              }));
    }
    for (int c = 0; c < CONSUMERS; c++) {
      tasks.add(
          pool.submit(
              () -> {
                go.await();
                while (handled.size() < total) {
                  List<Delivery> taken =
                      provider.fetch(WORK, FetchOptions.leased(Duration.ofMinutes(5)).limit(8));
                  for (Delivery delivery : taken) {
                    String thread = Thread.currentThread().getName();
                    if (holder.putIfAbsent(delivery.key(), thread) != null) {
                      doubleHandOuts.incrementAndGet();
                    }
                    boolean giveBack = ThreadLocalRandom.current().nextInt(10) == 0;
                    holder.remove(delivery.key());
                    if (giveBack) {
                      assertThat(delivery.settle(Disposition.UNHANDLED)).isTrue();
                      givenBack.incrementAndGet();
                    } else {
                      assertThat(delivery.ack()).isTrue();
                      handled
                          .computeIfAbsent(delivery.key(), k -> new AtomicInteger())
                          .incrementAndGet();
                    }
                  }
                  if (taken.isEmpty()) {
                    Thread.onSpinWait();
                  }
                }
                return null;
              }));
    }
    go.countDown();
    for (Future<?> task : tasks) {
      task.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();

    assertThat(posted).hasSize(total);
    assertThat(handled.keySet()).isEqualTo(posted);
    assertThat(handled.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
    assertThat(doubleHandOuts.get()).as("never held by two consumers at once").isZero();
    assertThat(givenBack.get()).as("the random give-backs happened").isPositive();
    assertThat(provider.status(WORK).unreadCount()).isZero();
    assertThat(provider.status(WORK).inFlightCount()).isZero();
  }
}
