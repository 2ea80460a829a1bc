package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Several rows of one ordering key in one publish call, on a transport that keeps a call's order
 * ({@code ordered-batch}): what may share a call, and what stops a key's run.
 */
class OutboxRelayOrderedBatchTest {

  /**
   * Where the relay finishes its batches: here on the sweeping thread; the {@code Pipelined}
   * subclass runs this suite again with each finish on a thread of its own.
   */
  java.util.concurrent.Executor finishing() {
    return Runnable::run;
  }

  private static final String ORDERS = "mem:events@shop/orders.placed.v1";
  private static final String INVOICES = "mem:events@shop/invoices.v1";

  private final MutableClock clock = new MutableClock();
  private final InMemoryOutboxStore store = new InMemoryOutboxStore();
  private final List<List<String>> calls = new ArrayList<>();
  private boolean refusing;
  private final OutboxPublisher ordered =
      new OutboxPublisher() {
        @Override
        public boolean keepsOrderWithinCall(String address) {
          return true;
        }

        @Override
        public void publish(OutboxRow row) {
          throw new AssertionError("the relay publishes batches");
        }

        @Override
        public List<Exception> publishAll(List<OutboxRow> rows) {
          calls.add(rows.stream().map(OutboxRow::id).toList());
          return Collections.nCopies(
              rows.size(), refusing ? new IllegalStateException("down") : null);
        }
      };
  private int sequence;

  private OutboxRelay relay() {
    return new OutboxRelay(
        store,
        ordered,
        RelaySettings.defaults(),
        clock,
        "relay-1",
        RelayListener.NONE,
        finishing());
  }

  private OutboxRow row(String id, String key, String address) {
    OutboxRow row = uncommitted(id, key, address);
    store.insert(row);
    return row;
  }

  private OutboxRow uncommitted(String id, String key, String address) {
    return PendingRows.pending(
        id, key, address, String.format("%016d", ++sequence), clock.millis(), 0);
  }

  @Test
  void severalRowsOfAKeyShareOneCallInWriteOrder() {
    row("a1", "a", ORDERS);
    row("b1", "b", ORDERS);
    row("a2", "a", ORDERS);
    row("a3", "a", ORDERS);
    row("u1", null, INVOICES);
    row("b2", "b", ORDERS);

    SweepResult result = relay().sweep();

    assertThat(calls)
        .as("one call per provider: every address here is mem:")
        .containsExactly(List.of("a1", "b1", "a2", "a3", "u1", "b2"));
    assertThat(result.published()).isEqualTo(6);
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(6);
  }

  @Test
  void aKeysRowForAnotherAddressWaitsForTheNextBatch() {
    row("a1", "a", ORDERS);
    row("a2", "a", INVOICES);
    row("a3", "a", INVOICES);

    relay().sweep();

    assertThat(calls).containsExactly(List.of("a1"), List.of("a2", "a3"));
  }

  @Test
  void aKeysRunStopsAtARowThatCommittedBetweenItsRows() {
    row("k1", "k", ORDERS);
    OutboxRow late = uncommitted("k-late", "k", ORDERS);
    row("k2", "k", ORDERS);
    store.beforeOpenPositions =
        () -> {
          store.beforeOpenPositions = () -> {};
          store.insert(late); // commits after the page was read, before the claim
        };
    OutboxRelay relay = relay();

    SweepResult first = relay.sweep();

    assertThat(calls).containsExactly(List.of("k1"));
    assertThat(first.blocked()).isEqualTo(1);
    assertThat(store.get("k2").claimVersion()).as("never claimed").isZero();

    relay.sweep(); // the lap ends: nothing behind the cursor
    relay.sweep();
    assertThat(calls).containsExactly(List.of("k1"), List.of("k-late", "k2"));
  }

  @Test
  void aRowWhoseEarlierRowOfItsKeyWasTakenIsGivenBackUnpublished() {
    row("k1", "k", ORDERS);
    row("k2", "k", ORDERS);
    row("k3", "k", ORDERS);
    long foreignLease = clock.millis() + 60_000;
    store.onClaim =
        id -> {
          if (id.equals("k1")) {
            store.onClaim = other -> {};
            store.foreignClaim("k2", foreignLease); // another relay takes k2 meanwhile
          }
        };

    SweepResult result = relay().sweep();

    assertThat(calls).containsExactly(List.of("k1"));
    OutboxRow givenBack = store.get("k3");
    assertThat(givenBack.status()).isEqualTo(OutboxStatus.PENDING);
    assertThat(givenBack.claimVersion()).isEqualTo(1);
    assertThat(givenBack.leaseUntil()).as("free for any relay at once").isZero();
    assertThat(givenBack.attempts()).as("no attempt counted").isZero();
    assertThat(result.blocked()).isEqualTo(2);
  }

  @Test
  void aFailedCallRetriesEveryRowOfTheKeyAndKeepsItBlocked() {
    row("k1", "k", ORDERS);
    row("k2", "k", ORDERS);
    refusing = true;

    SweepResult result = relay().sweep();

    assertThat(result.retried()).isEqualTo(2);
    assertThat(store.get("k1").attempts()).isEqualTo(1);
    assertThat(store.get("k2").attempts()).isEqualTo(1);

    refusing = false;
    clock.advance(Duration.ofMinutes(5));
    OutboxRelay relay = relay();
    relay.sweep();
    relay.sweep();
    assertThat(calls.get(calls.size() - 1)).containsExactly("k1", "k2");
    assertThat(store.count(OutboxStatus.SENT)).isEqualTo(2);
  }

  @Test
  void aRowBlockedBehindABatchKeepsItsKeyBlockedAfterTheBatchWentOut() {
    row("k1", "k", ORDERS);
    row("k2", "k", ORDERS);
    OutboxRow backingOff = row("k3", "k", ORDERS);
    store.insert(
        new OutboxRow(
            backingOff.id(),
            backingOff.topic(),
            backingOff.address(),
            backingOff.envelope(),
            backingOff.orderingKey(),
            null,
            null,
            null,
            backingOff.position(),
            backingOff.createdAt(),
            OutboxStatus.PENDING,
            1,
            clock.millis() + 60_000,
            0,
            0,
            "earlier failure",
            null));
    row("j1", "j", ORDERS);
    row("j2", "j", INVOICES); // another address: ends the batch, so k's batch goes out first
    row("k4", "k", ORDERS);

    relay().sweep();

    assertThat(calls).containsExactly(List.of("k1", "k2", "j1"), List.of("j2"));
    assertThat(store.get("k4").status()).as("still behind k3").isEqualTo(OutboxStatus.PENDING);
    assertThat(store.get("k4").claimVersion()).isZero();
  }
}
