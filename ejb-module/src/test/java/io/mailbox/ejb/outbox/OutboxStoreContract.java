package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.PublishOptions;
import jakarta.json.Json;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The outbox on a real database: the shipped DDL, the JPQL compare-and-set statements and two
 * relays racing over the same table ({@link OutboxRelayRaceContract}). One subclass per database.
 */
public abstract class OutboxStoreContract extends OutboxRelayRaceContract {
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
}
