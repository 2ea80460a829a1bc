package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.testsupport.TestDatabase;
import jakarta.json.Json;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The outbox on a real database: the shipped DDL, the JPQL compare-and-set statements and two
 * relays racing over the same table. One subclass per database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class OutboxStoreContract {
  private static final IntegrationEventDefinition<String> PLACED =
      IntegrationEventDefinition.define(
          "orders.placed", 1, "orders.placed.v1", data -> data.toString());
  private static final RelaySettings FAST =
      new RelaySettings(
          500,
          200,
          10,
          Duration.ofMillis(10),
          Duration.ofMillis(100),
          Duration.ofSeconds(3),
          Duration.ofMillis(200),
          Duration.ofMillis(500),
          Duration.ofMillis(500),
          Duration.ofSeconds(5),
          262_144,
          Duration.ofDays(7));

  private TestDatabase database;
  private final OutboxRows rows =
      new OutboxRows(Clock.systemUTC(), topic -> "mem:events@it/" + topic, 262_144);

  protected abstract TestDatabase openDatabase();

  @BeforeEach
  void freshTables() {
    if (database != null) {
      database.close();
    }
    database = openDatabase();
  }

  @AfterAll
  void close() {
    if (database != null) {
      database.close();
    }
  }

  private OutboxStore store() {
    return database.transactional(OutboxStore.class, JpaOutboxQueries::new);
  }

  private List<String> write(int count, int keys) {
    List<String> ids = new ArrayList<>();
    for (int start = 0; start < count; start += 500) {
      int from = start;
      database.inTransaction(
          em -> {
            for (int i = from; i < Math.min(count, from + 500); i++) {
              String key = i % 10 == 9 ? null : "key-" + (i % keys);
              OutboxRecord record =
                  rows.create(
                      PLACED, Json.createValue(i), WriteOptions.none().withOrderingKey(key));
              em.persist(record);
              ids.add(record.id());
            }
            return null;
          });
    }
    return ids;
  }

  @Test
  void aClaimIsACompareAndSetOnTheVersionSoOnlyOneRelayWins() {
    String id = write(1, 1).get(0);
    OutboxStore store = store();

    assertThat(store.claim(id, 0, System.currentTimeMillis() + 30_000)).isTrue();
    assertThat(store.claim(id, 0, System.currentTimeMillis() + 30_000))
        .as("the same expected version again")
        .isFalse();
    assertThat(store.markSent(id, 0, System.currentTimeMillis(), "stale"))
        .as("a stale version writes nothing")
        .isFalse();
    assertThat(store.markSent(id, 1, System.currentTimeMillis(), "winner")).isTrue();
    assertThat(store.find(id).orElseThrow().status()).isEqualTo(OutboxStatus.SENT);
  }

  @Test
  void aRolledBackBusinessTransactionLeavesNoRow() {
    assertThatThrownBy(
            () ->
                database.inTransaction(
                    em -> {
                      em.persist(rows.create(PLACED, Json.createValue(1), WriteOptions.none()));
                      throw new IllegalStateException("the business write failed");
                    }))
        .hasMessageContaining("business write failed");

    assertThat(store().count(OutboxStatus.PENDING)).isZero();
  }

  @Test
  void anOversizeEnvelopeIsRefusedInsideTheTransaction() {
    OutboxRows small = new OutboxRows(Clock.systemUTC(), topic -> "mem:events@it/" + topic, 100);

    assertThatThrownBy(
            () ->
                database.inTransaction(
                    em -> {
                      em.persist(
                          small.create(
                              PLACED, Json.createValue("x".repeat(200)), WriteOptions.none()));
                      return null;
                    }))
        .isInstanceOf(OutboxEnvelopeTooLargeException.class)
        .hasMessageStartingWith("MBX-3002");
    assertThat(store().count(OutboxStatus.PENDING)).isZero();
  }

  @Test
  void aRowKeepsItsPublishOptionsInTheTable() {
    String id =
        database.inTransaction(
            em -> {
              OutboxRecord record =
                  rows.create(
                      PLACED,
                      Json.createValue(1),
                      WriteOptions.none()
                          .withOrderingKey("customer-é")
                          .withDeduplicationId("order-1-v2")
                          .withHeader("tenant", "eu \"quoted\" é注")
                          .withHeader("Content-Language", "de"));
              em.persist(record);
              return record.id();
            });

    OutboxRow row = store().find(id).orElseThrow();
    MailMessage message = row.toMessage();
    assertThat(message.header(PublishOptions.ORDERING_KEY)).contains("customer-é");
    assertThat(message.header(PublishOptions.DEDUPLICATION_ID)).contains("order-1-v2");
    assertThat(row.callerHeaders())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("tenant", "eu \"quoted\" é注", "Content-Language", "de"));
  }

  @Test
  void releaseAndPurgeAndCountsWorkOnTheTable() {
    List<String> ids = write(3, 3);
    OutboxStore store = store();
    store.claim(ids.get(0), 0, Long.MAX_VALUE / 2);
    store.markFailed(ids.get(0), 1, 10, "gave up");
    store.claim(ids.get(1), 0, Long.MAX_VALUE / 2);
    store.markSent(ids.get(1), 1, 1_000, "r");

    assertThat(store.count(OutboxStatus.FAILED)).isEqualTo(1);
    assertThat(store.list(OutboxStatus.FAILED, 10))
        .extracting(OutboxRow::lastError)
        .containsExactly("gave up");
    assertThat(store.oldestPendingCreatedAt()).isPresent();
    assertThat(store.release(ids.get(0), true, 2_000)).isTrue();
    assertThat(store.find(ids.get(0)).orElseThrow().attempts()).isZero();
    assertThat(store.release(ids.get(0), true, 2_000))
        .as("only a failed row can be released")
        .isFalse();
    assertThat(store.purgeSettled(1_001, 100)).isEqualTo(1);
    assertThat(store.find(ids.get(1))).isEmpty();
  }

  /**
   * A relay with {@link #FAST}'s timings; pipelined, it finishes each batch on a thread of its own
   * and sweeps up to 2,000 rows (several batches), as the server runs it.
   */
  private OutboxRelay relay(OutboxPublisher publisher, String relayId, boolean pipelined) {
    if (!pipelined) {
      return new OutboxRelay(store(), publisher, FAST, Clock.systemUTC(), relayId);
    }
    return new OutboxRelay(
        store(),
        publisher,
        FAST.withLimits(2_000, 2_000),
        Clock.systemUTC(),
        relayId,
        RelayListener.NONE,
        FinishingThreads.EACH_ON_ITS_OWN);
  }

  /**
   * Unordered: one row per key per publish call; ordered: a key's rows share calls. Pipelined: each
   * relay claims its next batch while the one before is published (sweeps of several batches).
   */
  @ParameterizedTest(name = "ordered batches: {0}, pipelined: {1}")
  @CsvSource({"false, false", "true, false", "false, true", "true, true"})
  void twoRelaysPublishEveryCommittedRowAtLeastOnceKeepingPerKeyOrderOfFirstPublishes(
      boolean orderedBatches, boolean pipelined) throws Exception {
    List<String> written = write(10_000, 100);
    Map<String, String> keyOf = new ConcurrentHashMap<>();
    store()
        .page(null, 20_000)
        .forEach(r -> keyOf.put(r.id(), r.orderingKey() == null ? "-" : r.orderingKey()));
    RecordingPublisher flaky = new RecordingPublisher(orderedBatches, 10);
    ExecutorService relays = Executors.newFixedThreadPool(2);
    List<Future<Integer>> runs = new ArrayList<>();
    for (String relayId : List.of("relay-a", "relay-b")) {
      OutboxRelay relay = relay(flaky, relayId, pipelined);
      runs.add(
          relays.submit(
              () -> {
                int sweeps = 0;
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
                while (System.nanoTime() < deadline && store().count(OutboxStatus.PENDING) > 0) {
                  relay.sweep();
                  sweeps++;
                }
                return sweeps;
              }));
    }
    for (Future<Integer> run : runs) {
      run.get(5, TimeUnit.MINUTES);
    }
    relays.shutdown();

    assertThat(store().count(OutboxStatus.SENT)).isEqualTo(10_000);
    assertThat(flaky.publishes.keySet()).containsExactlyInAnyOrderElementsOf(written);
    assertThat(flaky.refused.get()).as("the random failures happened").isPositive();
    if (orderedBatches) {
      assertThat(flaky.callsWithSeveralRowsOfAKey.get())
          .as("calls that carried several rows of one key")
          .isPositive();
    }
    for (Map.Entry<String, List<String>> key : flaky.firstPublishesByKey.entrySet()) {
      if (key.getKey().equals("-")) {
        continue; // unkeyed rows promise no order
      }
      List<String> expected =
          written.stream().filter(id -> keyOf.get(id).equals(key.getKey())).toList();
      assertThat(key.getValue())
          .as("first publishes of " + key.getKey() + " in write order")
          .isEqualTo(expected);
    }
  }

  @Test
  void rowsClaimedByARelayThatDiedArePublishedAfterItsLease() throws Exception {
    List<String> written = write(20, 4);
    OutboxStore store = store();
    long now = System.currentTimeMillis();
    // The dead relay claimed every row and never came back.
    for (OutboxRow row : store.page(null, 100)) {
      assertThat(store.claim(row.id(), row.claimVersion(), now + 1_000)).isTrue();
    }
    List<String> published = Collections.synchronizedList(new ArrayList<>());
    OutboxRelay survivor =
        new OutboxRelay(store, row -> published.add(row.id()), FAST, Clock.systemUTC(), "survivor");

    survivor.sweep();
    assertThat(published).as("still inside the dead relay's lease").isEmpty();

    Thread.sleep(1_300);
    for (int i = 0; i < 5 && published.size() < 20; i++) {
      survivor.sweep();
    }
    assertThat(published).containsExactlyInAnyOrderElementsOf(written);
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(20);
  }

  @Test
  void openPositionsAreKeyedByTenantAndKeyInOrderAndIgnoreSettledRows() {
    database.inTransaction(
        em -> {
          em.persist(
              rows.create(PLACED, Json.createValue(1), WriteOptions.none().withOrderingKey("k")));
          em.persist(
              rows.create(
                  PLACED,
                  Json.createValue(2),
                  WriteOptions.none().withOrderingKey("k").withTenant("acme")));
          em.persist(
              rows.create(PLACED, Json.createValue(3), WriteOptions.none().withOrderingKey("k")));
          em.persist(
              rows.create(
                  PLACED, Json.createValue(4), WriteOptions.none().withOrderingKey("gone")));
          return null;
        });
    OutboxStore store = store();
    List<OutboxRow> written = store.page(null, 10);
    OutboxRow gone = written.get(3);
    store.claim(gone.id(), 0, Long.MAX_VALUE / 2);
    store.markSent(gone.id(), 1, 1_000, "r");

    Map<String, List<String>> open =
        store.openPositions(java.util.Set.of("k", "gone", "none"), written.get(3).position(), 100);

    assertThat(open)
        .containsOnly(
            Map.entry(
                OutboxRow.blockingKey(null, "k"),
                List.of(written.get(0).position(), written.get(2).position())),
            Map.entry(OutboxRow.blockingKey("acme", "k"), List.of(written.get(1).position())));
    assertThat(store.openPositions(java.util.Set.of(), "z", 100)).isEmpty();
    assertThat(store.openPositions(java.util.Set.of("k"), written.get(0).position(), 100))
        .as("bounded by the position given")
        .containsOnly(
            Map.entry(OutboxRow.blockingKey(null, "k"), List.of(written.get(0).position())));
    assertThat(store.openPositions(java.util.Set.of("k"), "z", 2))
        .as("at most the limit, the lowest positions")
        .containsOnly(
            Map.entry(OutboxRow.blockingKey(null, "k"), List.of(written.get(0).position())),
            Map.entry(OutboxRow.blockingKey("acme", "k"), List.of(written.get(1).position())));
  }

  /** One statement claims a batch; when another relay won some rows, each answer is still right. */
  @Test
  void aBatchClaimAndMarkSentAnswerPerRowWhenAnotherRelayWonSome() {
    List<String> ids = write(4, 4);
    OutboxStore store = store();
    long lease = System.currentTimeMillis() + 30_000;
    assertThat(store.claim(ids.get(1), 0, lease)).as("another relay takes one").isTrue();

    List<Boolean> claims =
        store.claimAll(
            ids.stream().map(id -> new OutboxStore.Version(id, 0)).toList(), lease, "relay-a");

    assertThat(claims).containsExactly(true, false, true, true);
    assertThat(store.find(ids.get(0)).orElseThrow().claimVersion()).isEqualTo(1);
    assertThat(store.claimAll(List.of(new OutboxStore.Version(ids.get(0), 0)), lease, "relay-b"))
        .as("the same expected version again")
        .containsExactly(false);
    assertThat(store.markSent(ids.get(3), 1, 1_000, "relay-a")).isTrue();

    List<Boolean> marked =
        store.markAllSent(
            List.of(
                new OutboxStore.Version(ids.get(0), 1),
                new OutboxStore.Version(ids.get(1), 0),
                new OutboxStore.Version(ids.get(2), 1),
                new OutboxStore.Version(ids.get(3), 1)),
            2_000,
            "relay-a");

    assertThat(marked)
        .as("a stale version and a row already sent are not this call's")
        .containsExactly(true, false, true, false);
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(3);
    assertThat(store.find(ids.get(1)).orElseThrow().status()).isEqualTo(OutboxStatus.PENDING);
  }

  /**
   * The race found with two servers: a row's position is stamped when it is written and it becomes
   * visible when its transaction commits, so a relay's lap cursor can pass a key's first row before
   * the second one appears. Writers hold each transaction open between a key's rows while unkeyed
   * rows commit around them; two relays sweep the whole time.
   */
  @ParameterizedTest(name = "ordered batches: {0}, pipelined: {1}")
  @CsvSource({"false, false", "true, false", "false, true", "true, true"})
  void keysWhoseRowsCommitBehindARelaysCursorStillGoOutInWriteOrder(
      boolean orderedBatches, boolean pipelined) throws Exception {
    RecordingPublisher recording = new RecordingPublisher(orderedBatches, 0);
    Map<String, List<String>> writtenByKey = new ConcurrentHashMap<>();
    AtomicInteger writersLeft = new AtomicInteger(3);
    ExecutorService threads = Executors.newFixedThreadPool(5);
    List<Future<?>> work = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      int writer = w;
      work.add(
          threads.submit(
              () -> {
                for (int order = 0; order < 40; order++) {
                  String key = "order-" + writer + "-" + order;
                  database.inTransaction(
                      em -> {
                        List<String> ids = new ArrayList<>();
                        for (int event = 0; event < 3; event++) {
                          OutboxRecord record =
                              rows.create(
                                  PLACED,
                                  Json.createValue(event),
                                  WriteOptions.none().withOrderingKey(key));
                          em.persist(record);
                          em.flush();
                          ids.add(record.id());
                          pause(15);
                        }
                        writtenByKey.put(key, ids);
                        return null;
                      });
                }
                writersLeft.decrementAndGet();
                return null;
              }));
    }
    work.add(
        threads.submit(
            () -> {
              while (writersLeft.get() > 1) {
                database.inTransaction(
                    em -> {
                      em.persist(rows.create(PLACED, Json.createValue(0), WriteOptions.none()));
                      return null;
                    });
                pause(2);
              }
              writersLeft.decrementAndGet();
              return null;
            }));
    for (String relayId : List.of("relay-a", "relay-b")) {
      OutboxRelay relay = relay(recording, relayId, pipelined);
      work.add(
          threads.submit(
              () -> {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                while (System.nanoTime() < deadline
                    && (writersLeft.get() > 0 || store().count(OutboxStatus.PENDING) > 0)) {
                  relay.sweep();
                }
                return null;
              }));
    }
    for (Future<?> done : work) {
      done.get(4, TimeUnit.MINUTES);
    }
    threads.shutdown();

    assertThat(store().count(OutboxStatus.PENDING)).isZero();
    assertThat(writtenByKey).hasSize(80);
    for (Map.Entry<String, List<String>> key : writtenByKey.entrySet()) {
      assertThat(recording.firstPublishesByKey.get(key.getKey()))
          .as("first publishes of " + key.getKey() + " in write order")
          .isEqualTo(key.getValue());
    }
  }

  /**
   * A batch that is most of the table (the claim's plan may scan it) claimed and settled while an
   * application transaction holds an inserted row and goes on inserting: the relay neither waits
   * for that row nor blocks the next insert. On MariaDB at REPEATABLE READ the scan's next-key
   * locks made the two wait on each other until InnoDB undid one (the CI failure behind {@link
   * StoreIsolation}).
   */
  @Test
  void aBatchStatementNeverWaitsForNorBlocksAnApplicationStillInserting() throws Exception {
    List<String> ids = write(600, 40);
    List<OutboxStore.Version> batch =
        ids.subList(0, 500).stream().map(id -> new OutboxStore.Version(id, 0)).toList();
    CountDownLatch inserted = new CountDownLatch(1);
    CountDownLatch relayDone = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    Future<Integer> application =
        threads.submit(
            () ->
                database.inTransaction(
                    em -> {
                      em.persist(rows.create(PLACED, Json.createValue(-1), WriteOptions.none()));
                      em.flush();
                      inserted.countDown();
                      await(relayDone);
                      em.persist(rows.create(PLACED, Json.createValue(-2), WriteOptions.none()));
                      em.flush();
                      return 2;
                    }));
    assertThat(inserted.await(10, TimeUnit.SECONDS)).isTrue();
    Future<List<Boolean>> relay =
        threads.submit(
            () -> {
              OutboxStore store = store();
              long lease = System.currentTimeMillis() + 30_000;
              store.claimAll(batch, lease, "relay-a");
              return store.markAllSent(
                  batch.stream().map(row -> new OutboxStore.Version(row.id(), 1)).toList(),
                  System.currentTimeMillis(),
                  "relay-a");
            });
    try {
      assertThat(relay.get(5, TimeUnit.SECONDS))
          .as("the relay's claim and mark-sent with an application transaction open")
          .hasSize(500)
          .containsOnly(true);
    } finally {
      relayDone.countDown();
    }
    assertThat(application.get(10, TimeUnit.SECONDS)).isEqualTo(2);
    threads.shutdown();
    assertThat(store().count(OutboxStatus.SENT)).isEqualTo(500);
    assertThat(store().count(OutboxStatus.PENDING)).isEqualTo(102);
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the relay did not finish within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void anOperatorFindsARowByItsIdOrByTextInItsEnvelopeWithWildcardsTakenLiterally() {
    List<String> ids = write(30, 5);
    String wanted = ids.get(7);

    List<OutboxRow> byId = database.inTransaction(em -> OutboxSearch.find(em, wanted, 20, 5_000));
    assertThat(byId).extracting(OutboxRow::id).containsExactly(wanted);
    database.inTransaction(
        em -> {
          em.persist(
              rows.create(PLACED, Json.createValue("50%_off for o-4242"), WriteOptions.none()));
          return null;
        });
    List<OutboxRow> byText =
        database.inTransaction(em -> OutboxSearch.find(em, "50%_off", 20, 5_000));
    assertThat(byText).hasSize(1);
    assertThat(byText.get(0).envelope()).contains("o-4242");
    List<OutboxRow> wildcards =
        database.inTransaction(em -> OutboxSearch.find(em, "5_%", 20, 5_000));
    assertThat(wildcards).as("% and _ match themselves, not any text").isEmpty();
    List<OutboxRow> nothing =
        database.inTransaction(em -> OutboxSearch.find(em, "no such text", 20, 5_000));
    assertThat(nothing).isEmpty();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
