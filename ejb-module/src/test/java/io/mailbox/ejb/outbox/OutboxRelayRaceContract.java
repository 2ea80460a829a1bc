package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import java.time.Clock;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Relays racing over one real table: two relays, a relay that died holding claims, and writers
 * still committing while they sweep. Part of {@link OutboxStoreContract}.
 */
abstract class OutboxRelayRaceContract extends OutboxStoreFixture {
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
}
