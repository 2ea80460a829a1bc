package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The relay's rules (reference: "The relay"), on an in-memory store. */
class OutboxRelayTest {

  /**
   * Where the relay finishes its batches: here on the sweeping thread; the {@code Pipelined}
   * subclass runs this suite again with each finish on a thread of its own.
   */
  java.util.concurrent.Executor finishing() {
    return Runnable::run;
  }

  private final MutableClock clock = new MutableClock();
  private final InMemoryOutboxStore store = new InMemoryOutboxStore();
  private final List<String> published = new ArrayList<>();
  private final Set<String> failing = new HashSet<>();
  private final OutboxPublisher publisher =
      row -> {
        if (failing.contains(row.id())) {
          throw new IllegalStateException("broker said no\nto " + row.id());
        }
        published.add(row.id());
      };
  private int sequence;

  private final RecordingRelayListener listener = new RecordingRelayListener();
  private final List<String> reported = listener.events;

  private OutboxRelay relay(RelaySettings settings) {
    return new OutboxRelay(store, publisher, settings, clock, "relay-1", listener, finishing());
  }

  private OutboxRelay relay() {
    return relay(RelaySettings.defaults());
  }

  private OutboxRow row(String id, String key) {
    OutboxRow row = uncommittedRow(id, key);
    store.insert(row);
    return row;
  }

  /** A row with the next position that no relay sees yet: its transaction has not committed. */
  private OutboxRow uncommittedRow(String id, String key) {
    return PendingRows.pending(
        id,
        key,
        "mem:events@shop/orders.placed.v1",
        String.format("%016d", ++sequence),
        clock.millis(),
        0);
  }

  @Test
  void pendingRowsArePublishedInWriteOrderAndMarkedSent() {
    row("a", null);
    row("b", "k");
    row("c", null);

    SweepResult result = relay().sweep();

    assertThat(published).containsExactly("a", "b", "c");
    assertThat(result.published()).isEqualTo(3);
    assertThat(store.get("b").status()).isEqualTo(OutboxStatus.SENT);
    assertThat(store.get("b").claimVersion()).as("claimed, then sent: each moves it").isEqualTo(2);
    assertThat(store.get("b").settledAt()).isEqualTo(clock.millis());
  }

  @Test
  void aFailedPublishBacksOffExponentiallyAndFailsAfterMaxAttempts() {
    OutboxRelay relay = relay(RelaySettings.defaults().withAttempts(3, Duration.ofSeconds(1)));
    row("a", null);
    failing.add("a");

    relay.sweep();
    assertThat(store.get("a").attempts()).isEqualTo(1);
    assertThat(store.get("a").availableAt()).isEqualTo(clock.millis() + 1000);
    assertThat(store.get("a").lastError()).doesNotContain("\n").contains("broker said no");

    relay.sweep();
    assertThat(store.get("a").attempts()).as("still backing off: not retried").isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    relay.sweep();
    assertThat(store.get("a").attempts()).isEqualTo(2);
    assertThat(store.get("a").availableAt()).as("doubled").isEqualTo(clock.millis() + 2000);

    clock.advance(Duration.ofSeconds(2));
    relay.sweep();
    assertThat(store.get("a").status()).isEqualTo(OutboxStatus.FAILED);
    assertThat(store.get("a").attempts()).isEqualTo(3);
  }

  @Test
  void aFailingRowBlocksLaterRowsOfItsKeyButNotOtherKeysOrUnkeyedRows() {
    row("k1-first", "k1");
    row("k1-second", "k1");
    row("k2-first", "k2");
    row("unkeyed", null);
    failing.add("k1-first");

    relay().sweep();

    assertThat(published).containsExactly("k2-first", "unkeyed");
    assertThat(store.get("k1-second").status()).isEqualTo(OutboxStatus.PENDING);
  }

  @Test
  void aFailedRowBlocksItsKeyUntilAnOperatorReleasesIt() {
    OutboxRelay relay = relay(RelaySettings.defaults().withAttempts(1, Duration.ofSeconds(1)));
    row("first", "k");
    row("second", "k");
    failing.add("first");
    relay.sweep();
    assertThat(store.get("first").status()).isEqualTo(OutboxStatus.FAILED);

    relay.sweep();
    relay.sweep();
    assertThat(published).as("the failed row still blocks its key").isEmpty();

    failing.clear();
    assertThat(store.release("first", true, clock.millis())).isTrue();
    assertThat(store.get("first").attempts()).isZero();
    relay.sweep();
    relay.sweep();
    assertThat(published).containsExactly("first", "second");
  }

  @Test
  void aDiscardedRowSettlesWithoutPublishingAndUnblocksItsKey() {
    OutboxRelay relay = relay(RelaySettings.defaults().withAttempts(1, Duration.ofSeconds(1)));
    row("first", "k");
    row("second", "k");
    failing.add("first");
    relay.sweep();

    store.release("first", false, clock.millis());
    relay.sweep();
    relay.sweep();

    assertThat(store.get("first").status()).isEqualTo(OutboxStatus.DISCARDED);
    assertThat(published).containsExactly("second");
  }

  @Test
  void aRowHeldByAnotherRelayBlocksItsKeyUntilItsLeasePlusSkewHasPassed() {
    row("held", "k");
    row("next", "k");
    store.foreignClaim("held", clock.millis() + 10_000);

    relay().sweep();
    assertThat(published).isEmpty();

    clock.advance(Duration.ofSeconds(14));
    relay().sweep();
    assertThat(published).as("lease over, but within the 5 s skew").isEmpty();

    clock.advance(Duration.ofSeconds(2));
    OutboxRelay relay = relay();
    relay.sweep();
    relay.sweep();
    assertThat(published).containsExactly("held", "next");
  }

  @Test
  void anUndecodableRowIsFailedAtOnceAsInvalidAndNeverPublished() {
    store.insert(
        new OutboxRow(
            "bad",
            "orders.placed.v1",
            "mem:events@shop/x",
            "{not json",
            null,
            null,
            null,
            null,
            "0000000000000001",
            0,
            OutboxStatus.PENDING,
            2,
            0,
            0,
            0,
            null,
            null));
    row("good", null);

    relay().sweep();

    assertThat(store.get("bad").status()).isEqualTo(OutboxStatus.FAILED);
    assertThat(store.get("bad").lastError()).startsWith("invalid-row");
    assertThat(store.get("bad").attempts()).as("attempts are preserved").isEqualTo(2);
    assertThat(published).containsExactly("good");
  }

  @Test
  void aRowWhoseEnvelopeNamesAnotherIdIsInvalid() {
    OutboxRow original = row("x", null);
    store.insert(
        new OutboxRow(
            "y",
            original.topic(),
            original.address(),
            original.envelope(),
            null,
            null,
            null,
            null,
            "0000000000000099",
            0,
            OutboxStatus.PENDING,
            0,
            0,
            0,
            0,
            null,
            null));

    relay().sweep();

    assertThat(store.get("y").status()).isEqualTo(OutboxStatus.FAILED);
    assertThat(published).containsExactly("x");
  }

  @Test
  void aClaimLostWhilePublishingIsAnOverlapAndTheRowIsNotMarkedByTheLoser() {
    row("a", "k");
    row("b", "k");
    store.onClaim =
        id -> {
          if (id.equals("a")) {
            store.foreignClaim("a", clock.millis() + 60_000);
          }
        };

    SweepResult result = relay().sweep();

    assertThat(result.overlaps()).isEqualTo(1);
    assertThat(published)
        .as("a once (a duplicate is possible), then b in the next wave, after a was acknowledged")
        .containsExactly("a", "b");
    assertThat(store.get("a").status())
        .as("its new holder re-sends it")
        .isEqualTo(OutboxStatus.PENDING);
    assertThat(store.get("b").status()).isEqualTo(OutboxStatus.SENT);
  }

  @Test
  void theFenceStopsAPublishWhenTheClaimWouldExpireMidway() {
    row("a", null);
    store.onClaim =
        id -> clock.advance(Duration.ofSeconds(20)); // a long pause right after the claim

    SweepResult result = relay().sweep();

    assertThat(published).isEmpty();
    assertThat(result.overlaps()).isEqualTo(1);
  }

  @Test
  void rowsOfAKeyThatCommitBehindARelaysCursorStillGoOutInWriteOrder() {
    // Positions are stamped at write, rows appear at commit: an order's transaction writes two
    // rows of key "k" while other transactions commit rows between and after them.
    row("before", null);
    OutboxRow first = uncommittedRow("k-1", "k");
    row("between", null);
    OutboxRow second = uncommittedRow("k-2", "k");
    OutboxRelay early = relay(RelaySettings.defaults().withLimits(2, 100));
    early.sweep(); // its cursor now stands on "between", past "k-1"'s position
    store.insert(first); // the order commits
    store.insert(second);

    early.sweep(); // sees "k-2" ahead of its cursor, "k-1" behind it
    assertThat(published).containsExactly("before", "between");
    assertThat(store.get("k-2").claimVersion()).isZero();

    new OutboxRelay(
            store, publisher, RelaySettings.defaults(), clock, "relay-2", listener, finishing())
        .sweep();
    early.sweep();
    assertThat(published).containsExactly("before", "between", "k-1", "k-2");
  }

  @Test
  void anEarlierFailedRowOfAKeyStopsALaterOneEvenWhenTheCursorIsPastIt() {
    row("a", null);
    OutboxRow stuck = uncommittedRow("k-1", "k");
    row("b", null);
    OutboxRow later = uncommittedRow("k-2", "k");
    OutboxRelay relay = relay(RelaySettings.defaults().withLimits(2, 100));
    relay.sweep();
    store.insert(stuck);
    store.insert(later);
    failing.add("k-1");

    for (int i = 0; i < 20; i++) {
      relay.sweep();
      clock.advance(Duration.ofMinutes(10));
    }

    assertThat(store.get("k-1").status()).isEqualTo(OutboxStatus.FAILED);
    assertThat(published).doesNotContain("k-2");
  }

  @Test
  void budgetsBoundASweepAndTheLapCarriesOverToTheNext() {
    OutboxRelay relay = relay(RelaySettings.defaults().withLimits(1000, 2));
    for (int i = 0; i < 5; i++) {
      row("r" + i, null);
    }

    relay.sweep();
    assertThat(published).containsExactly("r0", "r1");
    relay.sweep();
    relay.sweep();
    assertThat(published).containsExactly("r0", "r1", "r2", "r3", "r4");
  }

  @Test
  void aBlockedKeyCannotStarveTheKeysBehindIt() {
    OutboxRelay relay = relay(RelaySettings.defaults().withLimits(3, 100));
    row("stuck", "k");
    for (int i = 0; i < 5; i++) {
      row("k-" + i, "k");
    }
    row("other", "o");
    failing.add("stuck");

    relay.sweep();
    relay.sweep();
    relay.sweep();

    assertThat(published).contains("other").doesNotContain("k-0");
  }

  @Test
  void purgeDeletesOnlySettledRowsOlderThanTheRetention() {
    row("old", null);
    relay().sweep();
    clock.advance(Duration.ofDays(8));
    row("fresh", null);
    relay().sweep();
    row("pending", null);
    failing.add("pending");
    relay().sweep();

    assertThat(relay().purge(100)).isEqualTo(1);
    assertThat(store.find("old")).isEmpty();
    assertThat(store.find("fresh")).isPresent();
    assertThat(store.find("pending")).isPresent();
  }

  @Test
  void theListenerHearsPublishesFailuresPoisonAndOverlaps() {
    OutboxRelay relay = relay(RelaySettings.defaults().withAttempts(1, Duration.ofSeconds(1)));
    row("ok", null);
    row("bad", null);
    failing.add("bad");
    relay.sweep();
    row("fenced", null);
    store.onClaim = id -> clock.advance(Duration.ofSeconds(20));
    relay.sweep();

    // "ok" and "bad" go in one batch: the failure is settled before the batch's sent rows are
    // marked, so the order of events within a batch is not the order of the rows.
    assertThat(reported)
        .containsExactlyInAnyOrder(
            "published:orders.placed.v1",
            "failed:orders.placed.v1",
            "poisoned:orders.placed.v1",
            "overlap:fenced");
    assertThat(reported.get(3)).isEqualTo("overlap:fenced");
  }
}
