package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The pipelined relay: the next batch is read and claimed while the one before it is published and
 * marked sent on another thread. Each test holds the first batch's publish until the second claim
 * has happened, so the overlap is certain, not a matter of timing; then checks what the overlap
 * must not change: every key's rows are first published in write order, and a key that stopped in
 * flight has its rows in the next batch given back, not published.
 */
class OutboxRelayPipelineTest {
  private static final String ORDERS = "kafka:events@shop/orders.placed.v1";
  private static final int KEYS = 10;

  private final MutableClock clock = new MutableClock();
  private final InMemoryOutboxStore rows = new InMemoryOutboxStore();
  private final StoreFaults faults = new StoreFaults();
  private final AtomicInteger claims = new AtomicInteger();
  private final CountDownLatch secondClaim = new CountDownLatch(1);
  private final List<String> published = Collections.synchronizedList(new ArrayList<>());
  private final Set<String> refused = ConcurrentHashMap.newKeySet();
  private volatile boolean overlapped;
  private volatile boolean failSecondClaim;
  private volatile Duration firstMarkSentTakes = Duration.ZERO;
  private final AtomicInteger markSents = new AtomicInteger();
  private int sequence;

  /**
   * A transport that does not keep a call's order (as Kafka): the relay sends a key's rows in
   * waves, one per call. Its first call waits (bounded) until the next batch was claimed.
   */
  private final OutboxPublisher publisher =
      new OutboxPublisher() {
        private final AtomicInteger calls = new AtomicInteger();

        @Override
        public void publish(OutboxRow row) {
          throw new AssertionError("the relay publishes batches");
        }

        @Override
        public List<Exception> publishAll(List<OutboxRow> batch) {
          if (calls.incrementAndGet() == 1) {
            try {
              overlapped = secondClaim.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          List<Exception> failures = new ArrayList<>();
          for (OutboxRow row : batch) {
            if (refused.contains(row.id())) {
              failures.add(new IllegalStateException("the broker said no"));
            } else {
              published.add(row.id());
              failures.add(null);
            }
          }
          return failures;
        }
      };

  /** The store, counting claim statements: the second opens the first batch's publish. */
  private OutboxStore store() {
    OutboxStore faulty = faults.around(rows);
    return (OutboxStore)
        Proxy.newProxyInstance(
            OutboxStore.class.getClassLoader(),
            new Class<?>[] {OutboxStore.class},
            (proxy, method, args) -> {
              boolean second = method.getName().equals("claimAll") && claims.incrementAndGet() == 2;
              if (method.getName().equals("markAllSent") && markSents.incrementAndGet() == 1) {
                clock.advance(firstMarkSentTakes);
              }
              try {
                if (second && failSecondClaim) {
                  throw new IllegalStateException("injected store fault in the second claim");
                }
                return method.invoke(faulty, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              } finally {
                if (second) {
                  secondClaim.countDown();
                }
              }
            });
  }

  private OutboxRelay relay() {
    return relay(FinishingThreads.EACH_ON_ITS_OWN);
  }

  private OutboxRelay relay(Executor finishing) {
    return new OutboxRelay(
        store(),
        publisher,
        RelaySettings.defaults().withLimits(5_000, 5_000),
        clock,
        "relay-1",
        RelayListener.NONE,
        finishing);
  }

  /** {@code count} rows over {@link #KEYS} keys, ids {@code r0, r1, ...} in write order. */
  private List<String> write(int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String id = "r" + i;
      rows.insert(
          PendingRows.pending(
              id, "k" + (i % KEYS), ORDERS, String.format("%016d", ++sequence), clock.millis(), 0));
      ids.add(id);
    }
    return ids;
  }

  private static String keyOf(String id) {
    return "k" + (Integer.parseInt(id.substring(1)) % KEYS);
  }

  /** Each key's rows in the order they were first published. */
  private Map<String, List<String>> firstPublishesByKey() {
    Map<String, List<String>> byKey = new LinkedHashMap<>();
    synchronized (published) {
      published.stream()
          .distinct()
          .forEach(id -> byKey.computeIfAbsent(keyOf(id), k -> new ArrayList<>()).add(id));
    }
    return byKey;
  }

  private Map<String, List<String>> byKey(List<String> ids) {
    Map<String, List<String>> byKey = new LinkedHashMap<>();
    ids.forEach(id -> byKey.computeIfAbsent(keyOf(id), k -> new ArrayList<>()).add(id));
    return byKey;
  }

  /** Sweeps until nothing is pending; then every row is sent, each key first published in order. */
  private void assertAllSentInWriteOrderAfterSweeping(OutboxRelay relay, List<String> ids) {
    untilIdle(relay);
    assertThat(rows.count(OutboxStatus.SENT)).isEqualTo(ids.size());
    assertThat(firstPublishesByKey()).isEqualTo(byKey(ids));
  }

  /** Sweeps as the relay service does with a backlog, until nothing is pending (at most 10). */
  private void untilIdle(OutboxRelay relay) {
    for (int sweep = 0; sweep < 10 && rows.count(OutboxStatus.PENDING) > 0; sweep++) {
      relay.sweep();
    }
  }

  @Test
  void theNextBatchIsClaimedWhileTheOneBeforeIsPublishedAndOrderIsKept() {
    List<String> ids = write(1_200); // batches of 500, 500 and 200

    SweepResult result = relay().sweep();

    assertThat(overlapped).as("the second claim came before the first publish ended").isTrue();
    assertThat(result.published()).isEqualTo(1_200);
    assertThat(result.blocked()).isZero();
    assertThat(firstPublishesByKey()).isEqualTo(byKey(ids));
    assertThat(published).hasSize(1_200);
    assertThat(rows.count(OutboxStatus.SENT)).isEqualTo(1_200);
  }

  @Test
  void aKeyThatStopsInFlightHasItsRowsInTheNextBatchGivenBackUnpublished() {
    List<String> ids = write(600);
    refused.add("r17"); // key k7, in the first batch; k7 has 10 more rows in the second

    SweepResult result = relay().sweep();

    assertThat(overlapped).isTrue();
    List<String> k7 = byKey(ids).get("k7");
    assertThat(published).doesNotContainAnyElementsOf(k7.subList(k7.indexOf("r17"), k7.size()));
    assertThat(result.retried()).isEqualTo(1);
    // r17's later rows: 48 behind it in the first batch (held back: their waves come after its)
    // and 10 in the second, claimed in flight and given back with their lease cleared.
    for (String id : k7.subList(k7.indexOf("r17") + 1, k7.size())) {
      OutboxRow row = rows.get(id);
      assertThat(row.status()).isEqualTo(OutboxStatus.PENDING);
      assertThat(row.leaseUntil()).as(id).isZero();
      assertThat(row.attempts()).isZero();
    }
    assertThat(rows.count(OutboxStatus.SENT)).isEqualTo(600 - (k7.size() - k7.indexOf("r17")));

    refused.clear();
    clock.advance(Duration.ofMinutes(1)); // past r17's backoff
    assertAllSentInWriteOrderAfterSweeping(relay(), ids);
  }

  @Test
  void aStoreErrorInFlightEndsTheSweepAndGivesTheClaimedBatchBehindItBack() {
    List<String> ids = write(600);
    faults.failOnce("markAllSent"); // the first batch's: published, but not marked

    OutboxRelay relay = relay();
    assertThatThrownBy(relay::sweep).hasMessageContaining("markAllSent");

    assertThat(overlapped).isTrue();
    assertThat(published).containsExactlyInAnyOrderElementsOf(ids.subList(0, 500));
    for (String id : ids.subList(500, 600)) {
      assertThat(rows.get(id).leaseUntil()).as(id + " given back").isZero();
    }

    // The first batch's rows wait for their lease (their outcome is unknown), then go again; the
    // rows behind them never overtake them.
    clock.advance(Duration.ofSeconds(40));
    assertAllSentInWriteOrderAfterSweeping(relay, ids);
  }

  @Test
  void aBatchThatWaitedPastWhatItsClaimCoversIsGivenBackNotFenced() {
    List<String> ids = write(600);
    // The first batch's status write outlasts what the second's claim covers (30 s lease, 20 s
    // reserved for a publish, two status writes and the skew).
    firstMarkSentTakes = Duration.ofSeconds(15);

    SweepResult result = relay().sweep();

    assertThat(overlapped).isTrue();
    assertThat(result.published()).isEqualTo(500);
    assertThat(result.overlaps()).as("nothing fenced").isZero();
    assertThat(result.blocked()).as("the second batch, given back").isEqualTo(100);
    for (String id : ids.subList(500, 600)) {
      assertThat(rows.get(id).leaseUntil()).as(id + " free at once").isZero();
    }

    assertAllSentInWriteOrderAfterSweeping(relay(), ids);
  }

  @Test
  void aClaimErrorWhileABatchIsInFlightEndsTheSweepOnceThatBatchIsSettled() {
    List<String> ids = write(600);
    failSecondClaim = true;

    OutboxRelay relay = relay();
    assertThatThrownBy(relay::sweep).hasMessageContaining("second claim");

    assertThat(overlapped).isTrue();
    assertThat(rows.count(OutboxStatus.SENT)).as("the batch in flight finished").isEqualTo(500);
    for (String id : ids.subList(500, 600)) {
      assertThat(rows.get(id).leaseUntil()).as(id + " never claimed").isZero();
    }

    assertAllSentInWriteOrderAfterSweeping(relay, ids);
  }

  @Test
  void aClaimedBatchTheExecutorRefusesIsGivenBackAndTheSweepEnds() {
    List<String> ids = write(600);
    AtomicInteger tasks = new AtomicInteger();
    Executor refusingTheSecond =
        task -> {
          if (tasks.incrementAndGet() == 2) {
            throw new RejectedExecutionException("shutting down");
          }
          FinishingThreads.EACH_ON_ITS_OWN.execute(task);
        };
    OutboxRelay relay = relay(refusingTheSecond);

    assertThatThrownBy(relay::sweep).isInstanceOf(RejectedExecutionException.class);

    assertThat(rows.count(OutboxStatus.SENT)).as("the batch in flight finished").isEqualTo(500);
    for (String id : ids.subList(500, 600)) {
      OutboxRow row = rows.get(id);
      assertThat(row.claimVersion()).as(id + " was claimed").isEqualTo(1);
      assertThat(row.leaseUntil()).as(id + " given back").isZero();
    }

    assertAllSentInWriteOrderAfterSweeping(relay, ids);
  }
}
