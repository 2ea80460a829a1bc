package io.mailbox.ejb.outbox;

import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.testsupport.TestDatabase;
import jakarta.json.Json;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * What every outbox store test starts from: a fresh database per test (one subclass per database
 * opens it), the rows they write and the relay they race. The tests are in {@link
 * OutboxRelayRaceContract} (relays racing over one table) and {@link OutboxStoreContract} (the
 * statements one by one).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OutboxStoreFixture {
  static final IntegrationEventDefinition<String> PLACED =
      IntegrationEventDefinition.define(
          "orders.placed", 1, "orders.placed.v1", data -> data.toString());
  static final RelaySettings FAST =
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

  TestDatabase database;
  final OutboxRows rows =
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

  OutboxStore store() {
    return database.transactional(OutboxStore.class, JpaOutboxQueries::new);
  }

  List<String> write(int count, int keys) {
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

  /**
   * A relay with {@link #FAST}'s timings; pipelined, it finishes each batch on a thread of its own
   * and sweeps up to 2,000 rows (several batches), as the server runs it.
   */
  OutboxRelay relay(OutboxPublisher publisher, String relayId, boolean pipelined) {
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

  static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the relay did not finish within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
