package io.mailbox.connector.provider.mem;

import static io.mailbox.connector.provider.mem.MemoryRig.INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.RecoverResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Leases and acknowledgement timeouts (reference §5). */
class LeaseTest {
  private final MemoryRig rig = new MemoryRig();

  @Test
  void theDefaultLeaseIsThirtySeconds() {
    rig.post("a");

    Delivery delivery = rig.provider.fetch(INBOX, FetchOptions.leased()).get(0);

    assertThat(delivery.leaseExpiresAt()).contains(MemoryRig.START.plusSeconds(30));
  }

  @Test
  void anExpiredLeaseIsReclaimedLazilyByTheNextManualAckFetch() {
    rig.post("a");
    Delivery first = rig.lease(Duration.ofSeconds(5));
    rig.advance(Duration.ofSeconds(6));
    assertThat(rig.unread(INBOX)).as("lazy: nothing reclaims it yet").isZero();
    assertThat(rig.extension(INBOX, "mem.overdueInFlightCount")).isEqualTo(1);
    assertThat(rig.extension(INBOX, "mem.oldestOverdueMs")).isEqualTo(1000L);

    Delivery second = rig.lease(Duration.ofSeconds(5));

    assertThat(second.key()).isEqualTo(first.key());
    assertThat(first.ack()).as("the reclaimed handle is stale").isFalse();
    assertThat(second.ack()).isTrue();
  }

  @Test
  void aLeaseOfZeroNeverExpires() {
    rig.post("a");
    Delivery forever = rig.lease(Duration.ZERO);

    rig.advance(Duration.ofDays(365));

    assertThat(forever.leaseExpiresAt()).isEmpty();
    assertThat(rig.lease(Duration.ofSeconds(1))).isNull();
    assertThat(rig.provider.recover(INBOX).reclaimed()).isZero();
    assertThat(rig.extension(INBOX, "mem.overdueInFlightCount")).isEqualTo(0);
    assertThat(forever.ack()).isTrue();
  }

  @Test
  void aShortLeaseFetchCannotStealAnotherConsumersLease() {
    rig.post("a");
    Delivery holder = rig.lease(Duration.ofSeconds(60));
    rig.advance(Duration.ofSeconds(10));

    assertThat(rig.provider.fetch(INBOX, FetchOptions.leased(Duration.ofMillis(1)))).isEmpty();
    assertThat(holder.ack()).isTrue();
  }

  @Test
  void aLongLeaseFetchCannotStretchAnExpiredOne() {
    rig.post("a");
    Delivery expired = rig.lease(Duration.ofSeconds(1));
    rig.advance(Duration.ofSeconds(2));

    Delivery next = rig.lease(Duration.ofHours(1));

    assertThat(next).isNotNull();
    assertThat(expired.ack()).isFalse();
  }

  @Test
  void anExpiredButUnreclaimedLeaseCanStillBeSettled() {
    rig.post("a");
    Delivery late = rig.lease(Duration.ofSeconds(1));
    rig.advance(Duration.ofSeconds(5));

    assertThat(late.ack()).isTrue();
    assertThat(rig.provider.recover(INBOX).reclaimed()).isZero();
  }

  @Test
  void recoverReclaimsOnlyExpiredLeasesAndIsIdempotent() {
    rig.post("short");
    rig.post("long");
    rig.post("forever");
    rig.lease(Duration.ofSeconds(1));
    rig.lease(Duration.ofMinutes(10));
    rig.lease(Duration.ZERO);
    rig.advance(Duration.ofSeconds(2));

    RecoverResult first = rig.provider.recover(INBOX);
    RecoverResult second = rig.provider.recover(INBOX);

    assertThat(first.supported()).isTrue();
    assertThat(first.reclaimed()).isEqualTo(1);
    assertThat(first.byAddress()).containsEntry(INBOX, 1L);
    assertThat(second.reclaimed()).isZero();
    assertThat(rig.unread(INBOX)).isEqualTo(1);
    assertThat(rig.inFlight(INBOX)).isEqualTo(2);
  }

  @Test
  void reclaimedCopiesGoBackToTheHeadInHandOutOrder() {
    rig.post("a");
    rig.post("b");
    rig.post("c");
    rig.lease(Duration.ofSeconds(1));
    rig.lease(Duration.ofSeconds(1));
    rig.advance(Duration.ofSeconds(2));

    rig.provider.recover(INBOX);

    assertThat(rig.fetchAll(INBOX)).extracting(m -> m.id()).containsExactly("a", "b", "c");
  }

  @Test
  void theOptInSweeperReclaimsOnAClockAndStopsWithTheProvider() {
    MemoryRig swept = new MemoryRig(Duration.ofSeconds(5));
    swept.post("a");
    swept.lease(Duration.ofSeconds(1));

    swept.advance(Duration.ofSeconds(5));
    assertThat(swept.unread(INBOX)).isEqualTo(1);

    swept.provider.stop(false);
    assertThat(swept.scheduler.pending()).as("stop cancels the sweeper").isZero();
  }

  @Test
  void withoutTheSweeperNothingIsScheduled() {
    rig.post("a");
    rig.lease(Duration.ofSeconds(1));

    assertThat(rig.scheduler.pending()).isZero();
  }

  @Test
  void aFetchOfSeveralMessagesGivesEachItsOwnLease() {
    rig.post("a");
    rig.post("b");

    var deliveries = rig.provider.fetch(INBOX, FetchOptions.leased(Duration.ofSeconds(5)).limit(5));

    assertThat(deliveries).hasSize(2);
    assertThat(deliveries.get(0).leaseId()).isNotEqualTo(deliveries.get(1).leaseId());
    assertThat(deliveries.get(0).ack()).isTrue();
    assertThat(rig.inFlight(INBOX)).isEqualTo(1);
  }
}
