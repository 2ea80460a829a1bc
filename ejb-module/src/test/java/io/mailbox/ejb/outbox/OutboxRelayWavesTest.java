package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Several rows of one ordering key in one batch on a transport that does not keep a call's order
 * (kafka, nats, redis, file): one claim, then one publish call per wave, a key's next row only
 * after the answer for its predecessor; a key whose row did not go has its later rows given back.
 */
class OutboxRelayWavesTest {

  /**
   * Where the relay finishes its batches: here on the sweeping thread; the {@code Pipelined}
   * subclass runs this suite again with each finish on a thread of its own.
   */
  java.util.concurrent.Executor finishing() {
    return Runnable::run;
  }

  private static final String ORDERS = "kafka:events@shop/orders.placed.v1";

  private final MutableClock clock = new MutableClock();
  private final InMemoryOutboxStore store = new InMemoryOutboxStore();
  private final List<List<String>> calls = new ArrayList<>();
  private final Set<String> refused = new HashSet<>();
  private Runnable duringCall = () -> {};
  private int throwOnCall = -1; // the call (0-based) that throws instead of answering
  private int sequence;

  private final OutboxPublisher unordered =
      new OutboxPublisher() {
        @Override
        public void publish(OutboxRow row) {
          throw new AssertionError("the relay publishes batches");
        }

        @Override
        public List<Exception> publishAll(List<OutboxRow> rows) {
          calls.add(rows.stream().map(OutboxRow::id).toList());
          duringCall.run();
          if (calls.size() - 1 == throwOnCall) {
            throw new IllegalStateException("the publisher broke");
          }
          return rows.stream()
              .map(row -> refused.contains(row.id()) ? new IllegalStateException("down") : null)
              .map(Exception.class::cast)
              .toList();
        }
      };

  private OutboxRelay relay() {
    return relay(RelaySettings.defaults());
  }

  private OutboxRelay relay(RelaySettings settings) {
    return new OutboxRelay(
        store, unordered, settings, clock, "relay-1", RelayListener.NONE, finishing());
  }

  private void row(String id, String key) {
    row(id, key, ORDERS);
  }

  private void row(String id, String key, String address) {
    store.insert(
        PendingRows.pending(
            id, key, address, String.format("%016d", ++sequence), clock.millis(), 0));
  }

  @Test
  void aKeysRowsGoInSuccessiveCallsEachAfterTheAnswerForTheOneBefore() {
    row("a1", "a");
    row("b1", "b");
    row("a2", "a");
    row("b2", "b");
    row("a3", "a");
    row("u1", null);

    SweepResult result = relay().sweep();

    assertThat(calls)
        .containsExactly(List.of("a1", "b1", "u1"), List.of("a2", "b2"), List.of("a3"));
    assertThat(result.published()).isEqualTo(6);
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(6);
  }

  @Test
  void aRowThatFailedHoldsBackOnlyTheLaterRowsOfItsKey() {
    row("a1", "a");
    row("b1", "b");
    row("a2", "a");
    row("b2", "b");
    row("a3", "a");
    row("b3", "b");
    refused.add("a2");

    SweepResult result = relay().sweep();

    assertThat(calls)
        .as("a3 is never published: its predecessor failed")
        .containsExactly(List.of("a1", "b1"), List.of("a2", "b2"), List.of("b3"));
    assertThat(result.published()).isEqualTo(4);
    assertThat(result.retried()).isEqualTo(1);
    assertThat(store.get("a2").attempts()).isEqualTo(1);
    OutboxRow heldBack = store.get("a3");
    assertThat(heldBack.status()).isEqualTo(OutboxStatus.PENDING);
    assertThat(heldBack.attempts()).as("no attempt counted").isZero();
    assertThat(heldBack.leaseUntil()).as("its claim given back").isZero();

    refused.clear();
    clock.advance(Duration.ofMinutes(5)); // past a2's backoff
    OutboxRelay next = relay();
    next.sweep();
    next.sweep();
    assertThat(calls.subList(3, calls.size()))
        .as("the key resumes in order")
        .containsExactly(List.of("a2"), List.of("a3"));
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(6);
  }

  @Test
  void wavesThatWouldNotFitInTheClaimAreGivenBackAtOnceNotFenced() {
    row("a1", "a");
    row("a2", "a");
    row("a3", "a");
    duringCall = () -> clock.advance(Duration.ofSeconds(20)); // a slow call: the claim runs low

    SweepResult result = relay().sweep();

    assertThat(calls).containsExactly(List.of("a1"));
    assertThat(store.get("a1").status()).isEqualTo(OutboxStatus.SENT);
    assertThat(result.overlaps()).as("nothing fenced").isZero();
    assertThat(result.blocked()).isEqualTo(2);
    for (String id : List.of("a2", "a3")) {
      OutboxRow givenBack = store.get(id);
      assertThat(givenBack.status()).isEqualTo(OutboxStatus.PENDING);
      assertThat(givenBack.attempts()).isZero();
      assertThat(givenBack.leaseUntil()).as("free at once, not after the claim").isZero();
    }

    duringCall = () -> {};
    OutboxRelay next = relay();
    next.sweep();
    next.sweep();
    assertThat(calls.subList(1, calls.size())).containsExactly(List.of("a2"), List.of("a3"));
  }

  @Test
  void aPublisherThatThrowsInALaterWaveFailsThatWavesRowsAndHoldsBackTheirKeys() {
    row("a1", "a");
    row("b1", "b");
    row("a2", "a");
    row("b2", "b");
    row("a3", "a");
    throwOnCall = 1;

    SweepResult result = relay().sweep();

    assertThat(calls).containsExactly(List.of("a1", "b1"), List.of("a2", "b2"));
    assertThat(result.published()).isEqualTo(2);
    assertThat(result.retried()).isEqualTo(2);
    assertThat(store.get("a3").attempts()).as("held back, never tried").isZero();
    assertThat(store.get("a3").leaseUntil()).isZero();
  }

  @Test
  void aKeyHeldBackStaysBlockedForTheRestOfTheLapOfTheSameRelay() {
    row("a1", "a");
    row("a2", "a");
    row("a3", "a");
    refused.add("a2");
    OutboxRelay relay = relay();

    relay.sweep();
    refused.clear();
    row("a4", "a"); // written after the cursor passed a3: met in this lap
    relay.sweep();

    assertThat(calls)
        .as("a3 and a4 wait behind a2, which backs off")
        .containsExactly(List.of("a1"), List.of("a2"));
  }

  @Test
  void aProviderThatKeepsACallsOrderGetsAKeysRowsInOneCallBesideTheWaves() {
    String memOrders = "mem:events@shop/orders.placed.v1";
    OutboxPublisher mixed =
        new OutboxPublisher() {
          @Override
          public boolean keepsOrderWithinCall(String address) {
            return address.startsWith("mem:");
          }

          @Override
          public void publish(OutboxRow row) {
            throw new AssertionError("the relay publishes batches");
          }

          @Override
          public List<Exception> publishAll(List<OutboxRow> rows) {
            return unordered.publishAll(rows);
          }
        };
    row("m1", "m", memOrders);
    row("k1", "k");
    row("m2", "m", memOrders);
    row("k2", "k");

    new OutboxRelay(
            store,
            mixed,
            RelaySettings.defaults(),
            clock,
            "relay-1",
            RelayListener.NONE,
            finishing())
        .sweep();

    assertThat(calls)
        .as("one call per provider and wave; mem's rows all in the first")
        .containsExactly(List.of("m1", "m2"), List.of("k1"), List.of("k2"));
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(4);
  }

  @Test
  void aLaterWaveWaitsForTheNextSweepOnceTheSweepsTimeIsUp() {
    RelaySettings longClaim =
        new RelaySettings(
            2000,
            500,
            10,
            Duration.ofSeconds(1),
            Duration.ofMinutes(5),
            Duration.ofSeconds(60), // the claim would still cover the next wave
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(30), // the sweep's deadline would not
            262_144,
            Duration.ofDays(7));
    row("a1", "a");
    row("a2", "a");
    duringCall = () -> clock.advance(Duration.ofSeconds(15));

    SweepResult result = relay(longClaim).sweep();

    assertThat(calls).containsExactly(List.of("a1"));
    assertThat(result.blocked()).isEqualTo(1);
    assertThat(store.get("a2").leaseUntil()).as("given back").isZero();
  }

  /** Rows of distinct keys share one call; a key's next row goes in the next wave. */
  @Test
  void rowsOfDistinctKeysArePublishedInOneCallAndAKeysNextRowInTheNextWave() {
    row("a1", "a");
    row("b1", "b");
    row("u1", null);
    row("a2", "a");
    row("c1", "c");

    SweepResult result = relay().sweep();

    assertThat(calls)
        .as("one claim; the second call starts after the first was answered")
        .containsExactly(List.of("a1", "b1", "u1", "c1"), List.of("a2"));
    assertThat(result.published()).isEqualTo(5);
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(5);
  }

  @Test
  void aBatchWhoseCallFailsRetriesEveryRowInItAndBlocksTheirKeys() {
    refused.addAll(List.of("a1", "b1", "a2"));
    row("a1", "a");
    row("b1", "b");
    row("a2", "a");

    SweepResult result = relay().sweep();

    assertThat(result.retried()).isEqualTo(2);
    assertThat(result.blocked()).as("a2 waits behind a1").isEqualTo(1);
    assertThat(store.find("a2").orElseThrow().attempts()).isZero();
  }
}
