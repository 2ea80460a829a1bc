package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The relay with faults injected into its store and its destinations: order per key survives a
 * store error mid-batch, a row at the top of the version range fails alone, and a failing provider
 * or address delays only its own rows.
 */
class OutboxRelayFaultTest {

  /**
   * Where the relay finishes its batches: here on the sweeping thread; the {@code Pipelined}
   * subclass runs this suite again with each finish on a thread of its own.
   */
  java.util.concurrent.Executor finishing() {
    return Runnable::run;
  }

  private static final String MEM = "mem:events@shop/orders.placed.v1";

  private final MutableClock clock = new MutableClock();
  private final InMemoryOutboxStore rows = new InMemoryOutboxStore();
  private final StoreFaults faults = new StoreFaults();
  private final List<String> published = new ArrayList<>();
  private final Set<String> failing = new HashSet<>();
  private int sequence;

  /** Publishes one row after another; a row in {@code failing} is refused. */
  private final OutboxPublisher oneByOne =
      row -> {
        if (failing.contains(row.id())) {
          throw new IllegalStateException("broker said no");
        }
        published.add(row.id());
      };

  /**
   * Publishes all rows in one call, as the adapter does: a call holding any row for a failing
   * destination (a scheme like {@code "amqp:"} or a whole address) fails for every row in it.
   */
  private OutboxPublisher wholeCalls(Set<String> failingDestinations, List<List<String>> calls) {
    return new OutboxPublisher() {
      @Override
      public void publish(OutboxRow row) {
        throw new AssertionError("the relay publishes batches");
      }

      @Override
      public List<Exception> publishAll(List<OutboxRow> batch) {
        calls.add(batch.stream().map(OutboxRow::id).toList());
        boolean down =
            batch.stream()
                .anyMatch(
                    row -> failingDestinations.stream().anyMatch(d -> row.address().startsWith(d)));
        if (down) {
          return java.util.Collections.nCopies(
              batch.size(), new IllegalStateException("connection refused"));
        }
        batch.forEach(row -> published.add(row.id()));
        return java.util.Collections.nCopies(batch.size(), null);
      }
    };
  }

  private OutboxRelay relay(OutboxPublisher publisher, RelaySettings settings) {
    return new OutboxRelay(
        faults.around(rows),
        publisher,
        settings,
        clock,
        "relay-1",
        RelayListener.NONE,
        finishing());
  }

  private OutboxRow row(String id, String key) {
    return row(id, key, MEM, 0);
  }

  private OutboxRow row(String id, String key, String address, long claimVersion) {
    OutboxRow row =
        PendingRows.pending(
            id, key, address, String.format("%016d", ++sequence), clock.millis(), claimVersion);
    rows.insert(row);
    return row;
  }

  /** Sweeps until a lap ended with nothing left to publish, swallowing injected faults. */
  private void sweepUntilQuiet(OutboxRelay relay) {
    for (int i = 0; i < 10; i++) {
      try {
        relay.sweep();
      } catch (IllegalStateException injected) {
        // the fault ends that sweep; the next one goes on
      }
      clock.advance(Duration.ofMinutes(1)); // past every lease, skew and backoff
    }
  }

  @Test
  void aClaimThatThrowsLeavesTheBatchKeysBlockedSoNoLaterRowOvertakes() {
    row("a1", "a");
    row("b1", "b");
    // For another address: closes the batch [a1, b1]; the cursor is past b1 when the claim throws.
    row("a2", "a", "mem:events@shop/invoices.v1", 0);
    faults.failOnce("claimAll");
    OutboxRelay relay = relay(oneByOne, RelaySettings.defaults());

    assertThatThrownBy(relay::sweep).hasMessageContaining("injected store fault in claimAll");
    SweepResult next = relay.sweep();

    assertThat(published).as("a2 waits for a1, whose claim failed").isEmpty();
    assertThat(next.blocked()).isEqualTo(1);
    sweepUntilQuiet(relay);
    assertThat(published).containsExactly("a1", "b1", "a2");
  }

  @Test
  void aClaimTheDatabaseUndidAsADeadlockVictimIsContentionNotAnError() {
    row("a1", "a");
    row("b1", null);
    faults.conflict("claimAll", 1);
    OutboxRelay relay = relay(oneByOne, RelaySettings.defaults());

    SweepResult first = relay.sweep();

    assertThat(first.blocked()).as("counted as rows another relay holds").isEqualTo(2);
    assertThat(published).isEmpty();
    sweepUntilQuiet(relay);
    assertThat(published).containsExactly("a1", "b1");
  }

  @Test
  void aMarkSentUndoneByAConflictRunsAgainAndGivesUpAfterThreeTries() {
    row("a1", "a");
    faults.conflict("markAllSent", 2);
    OutboxRelay relay = relay(oneByOne, RelaySettings.defaults());

    assertThat(relay.sweep().published()).as("the third try settles it").isEqualTo(1);
    assertThat(rows.get("a1").status()).isEqualTo(OutboxStatus.SENT);

    row("a2", "a");
    faults.conflict("markAllSent", 3);
    assertThatThrownBy(relay::sweep).hasRootCauseMessage("ERROR: deadlock detected");
    assertThat(rows.get("a2").status()).isEqualTo(OutboxStatus.PENDING);
  }

  @Test
  void aMarkRetryThatThrowsAfterAFailedPublishKeepsItsKeyBlocked() {
    row("a1", "a");
    row("a2", "a");
    failing.add("a1");
    faults.failOnce("markRetry");
    OutboxRelay relay = relay(oneByOne, RelaySettings.defaults());

    assertThatThrownBy(relay::sweep).hasMessageContaining("markRetry");
    relay.sweep();

    assertThat(published).as("a1 is still claimed and unsettled: a2 must wait").isEmpty();
    failing.clear();
    sweepUntilQuiet(relay);
    assertThat(published).containsExactly("a1", "a2");
  }

  @Test
  void aMarkFailedThatThrowsAtMaxAttemptsKeepsItsKeyBlocked() {
    row("a1", "a");
    row("a2", "a");
    failing.add("a1");
    faults.failOnce("markFailed");
    OutboxRelay relay = relay(oneByOne, RelaySettings.defaults().withAttempts(1, Duration.ZERO));

    assertThatThrownBy(relay::sweep).hasMessageContaining("markFailed");
    relay.sweep();

    assertThat(published).isEmpty();
    sweepUntilQuiet(relay);
    assertThat(rows.get("a1").status()).isEqualTo(OutboxStatus.FAILED);
    assertThat(published).as("a failed row blocks its key for good").isEmpty();
  }

  @Test
  void aRowAtTheTopOfTheClaimVersionRangeFailsAloneAndItsBatchGoesOn() {
    row("before", null);
    row("top", "t", MEM, Long.MAX_VALUE);
    row("after", "u");

    SweepResult result = relay(oneByOne, RelaySettings.defaults()).sweep();

    assertThat(published).containsExactly("before", "after");
    assertThat(result.failed()).isEqualTo(1);
    assertThat(rows.get("top").status()).isEqualTo(OutboxStatus.FAILED);
    assertThat(rows.get("top").lastError()).isEqualTo("invalid-row: claim version out of range");
    assertThat(rows.get("top").claimVersion()).as("never claimed").isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aFailingProviderDelaysOnlyItsOwnRows() {
    List<List<String>> calls = new ArrayList<>();
    OutboxRelay relay = relay(wholeCalls(Set.of("amqp:"), calls), RelaySettings.defaults());
    for (int i = 0; i < 6; i++) {
      row("j" + i, "j" + i, "jdbc:shipping@shop/orders", 0);
      row("r" + i, "r" + i, "amqp:billing@shop/invoices", 0);
    }

    SweepResult result = relay.sweep();

    assertThat(result.published()).isEqualTo(6);
    assertThat(result.retried()).isEqualTo(6);
    for (int i = 0; i < 6; i++) {
      assertThat(rows.get("j" + i).status()).isEqualTo(OutboxStatus.SENT);
      assertThat(rows.get("j" + i).attempts()).isZero();
      assertThat(rows.get("r" + i).status()).isEqualTo(OutboxStatus.PENDING);
      assertThat(rows.get("r" + i).attempts()).isEqualTo(1);
    }
    assertThat(calls).as("one call per provider").hasSize(2);
  }

  @Test
  void aRefusedAddressDelaysOnlyItsOwnRowsEvenWithinAHealthyProvider() {
    List<List<String>> calls = new ArrayList<>();
    OutboxRelay relay =
        relay(wholeCalls(Set.of("mem:events@shop/broken"), calls), RelaySettings.defaults());
    row("ok1", "k1", "mem:events@shop/fine", 0);
    row("bad", "k2", "mem:events@shop/broken", 0);
    row("ok2", "k3", "mem:events@shop/fine", 0);

    SweepResult result = relay.sweep();

    assertThat(published).containsExactly("ok1", "ok2");
    assertThat(result.retried()).isEqualTo(1);
    assertThat(rows.get("bad").attempts()).isEqualTo(1);
    assertThat(rows.get("ok1").attempts()).isZero();
    assertThat(calls)
        .as("the provider's call failed as a whole, then each address alone")
        .containsExactly(List.of("ok1", "bad", "ok2"), List.of("ok1", "ok2"), List.of("bad"));
  }

  @Test
  void aPublisherThatThrowsFailsOnlyItsCallsRows() {
    OutboxPublisher throwing =
        new OutboxPublisher() {
          @Override
          public void publish(OutboxRow row) {}

          @Override
          public List<Exception> publishAll(List<OutboxRow> batch) {
            if (batch.stream().anyMatch(r -> r.address().startsWith("amqp:"))) {
              throw new IllegalStateException("broker unreachable");
            }
            batch.forEach(r -> published.add(r.id()));
            return java.util.Collections.nCopies(batch.size(), null);
          }
        };
    row("j", "j", "jdbc:shipping@shop/orders", 0);
    row("r", "r", "amqp:billing@shop/invoices", 0);

    SweepResult result = relay(throwing, RelaySettings.defaults()).sweep();

    assertThat(published).containsExactly("j");
    assertThat(result.retried()).isEqualTo(1);
    assertThat(rows.get("r").lastError()).contains("broker unreachable");
  }
}
