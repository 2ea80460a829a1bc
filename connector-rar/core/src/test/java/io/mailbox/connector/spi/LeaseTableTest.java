package io.mailbox.connector.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lease table the in-memory-lease transports share (mem, file, amqp). */
class LeaseTableTest {
  private static final MailAddress QUEUE = MailAddress.parse("mem:billing@shop/orders");
  private static final MailAddress OTHER = MailAddress.parse("mem:billing@shop/refunds");
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private final LeaseTable<String> table = new LeaseTable<>();

  private void hand(String key, MailAddress address, String leaseId, Duration lease) {
    table.put(
        key,
        address,
        new Lease(leaseId, T0, lease == null ? null : T0.plus(lease)),
        MailMessage.to(address).id("m-" + key).body("{}").build(),
        "tag-" + key);
  }

  @Test
  void aReleaseNeedsTheKeyTheAddressAndTheLeaseItWasHandedOutUnder() {
    hand("k1", QUEUE, "lease-1", Duration.ofSeconds(30));

    assertThat(table.release(QUEUE, "k1", "stale-lease")).isEmpty();
    assertThat(table.release(OTHER, "k1", "lease-1")).isEmpty();
    assertThat(table.holds("k1")).as("a refused release changes nothing").isTrue();

    assertThat(table.release(QUEUE, "k1", "lease-1"))
        .hasValueSatisfying(leased -> assertThat(leased.handle()).isEqualTo("tag-k1"));
    assertThat(table.holds("k1")).isFalse();
    assertThat(table.release(QUEUE, "k1", "lease-1")).as("once only").isEmpty();
  }

  @Test
  void expiredLeasesAreTakenPerAddressOldestHandOutFirstAndNeverLeasesWithoutAnEnd() {
    hand("k1", QUEUE, "l1", Duration.ofSeconds(10));
    hand("k2", QUEUE, "l2", null);
    hand("k3", OTHER, "l3", Duration.ofSeconds(10));
    hand("k4", QUEUE, "l4", Duration.ofSeconds(5));

    assertThat(table.takeExpired(QUEUE, T0.plusSeconds(4))).isEmpty();
    assertThat(table.takeExpired(QUEUE, T0.plusSeconds(10)))
        .extracting(LeaseTable.Leased::key)
        .containsExactly("k1", "k4");
    assertThat(table.addresses()).containsExactlyInAnyOrder(QUEUE, OTHER);
    assertThat(table.size()).isEqualTo(2);
  }

  @Test
  void aNewHandOutOfTheSameCopyVoidsTheOldLeaseAndMovesToTheEnd() {
    hand("k1", QUEUE, "first", Duration.ofSeconds(10));
    hand("k2", QUEUE, "l2", Duration.ofSeconds(10));
    hand("k1", QUEUE, "second", Duration.ofSeconds(10));

    assertThat(table.release(QUEUE, "k1", "first")).isEmpty();
    assertThat(table.inFlight(QUEUE, 10))
        .extracting(copy -> copy.leaseId())
        .containsExactly("l2", "second");
  }

  @Test
  void aTableGuardedByItsOwnersMonitorWaitsWhileTheOwnerHoldsIt() throws Exception {
    Object owner = new Object();
    LeaseTable<String> owned = new LeaseTable<>(owner);
    java.util.concurrent.CountDownLatch putDone = new java.util.concurrent.CountDownLatch(1);
    Thread other;
    synchronized (owner) {
      owned.put(
          "k1", QUEUE, new Lease("l1", T0, null), MailMessage.to(QUEUE).body("{}").build(), "a");
      other =
          new Thread(
              () -> {
                owned.put(
                    "k2",
                    QUEUE,
                    new Lease("l2", T0, null),
                    MailMessage.to(QUEUE).body("{}").build(),
                    "b");
                putDone.countDown();
              });
      other.start();
      assertThat(putDone.await(200, java.util.concurrent.TimeUnit.MILLISECONDS))
          .as("another thread waits for the owner's monitor")
          .isFalse();
      assertThat(owned.size()).as("re-entered by the owner").isEqualTo(1);
    }
    other.join(5_000);
    assertThat(owned.size()).isEqualTo(2);
  }

  @Test
  void theCensusCountsInFlightAndOverdueCopiesOfOneAddress() {
    hand("k1", QUEUE, "l1", Duration.ofSeconds(10));
    hand("k2", QUEUE, "l2", Duration.ofSeconds(20));
    hand("k3", QUEUE, "l3", Duration.ofSeconds(60));
    hand("k4", OTHER, "l4", Duration.ofSeconds(1));

    LeaseTable.Census census = table.census(QUEUE, T0.plusSeconds(25));

    assertThat(census.inFlight()).isEqualTo(3);
    assertThat(census.overdue()).isEqualTo(2);
    assertThat(census.oldestOverdue()).isEqualTo(Duration.ofSeconds(15));
    assertThat(table.takeAll())
        .extracting(LeaseTable.Leased::key)
        .containsExactly("k1", "k2", "k3", "k4");
    assertThat(table.size()).isZero();
  }

  /**
   * takeExpired skips its scan while no lease can have ended (a bound kept as leases are put):
   * 20,000 random hand-outs, releases and reclaims at random times over two addresses, each reclaim
   * checked against a plain scan of a model.
   */
  @Test
  void aReclaimTakesExactlyWhatAFullScanWouldUnderRandomOperations() {
    java.util.Random random = new java.util.Random(21);
    java.util.Map<String, Lease> model = new java.util.LinkedHashMap<>();
    java.util.Map<String, MailAddress> addressOf = new java.util.HashMap<>();
    Instant now = T0;
    for (int step = 0; step < 20_000; step++) {
      now = now.plusMillis(random.nextInt(50));
      String key = "k" + random.nextInt(300);
      MailAddress address = random.nextBoolean() ? QUEUE : OTHER;
      switch (random.nextInt(4)) {
        case 0, 1 -> {
          Instant end = random.nextInt(10) == 0 ? null : now.plusMillis(random.nextInt(2_000));
          Lease lease = new Lease("l" + step, now, end);
          table.put(key, address, lease, MailMessage.to(address).id(key).body("{}").build(), key);
          model.remove(key);
          model.put(key, lease);
          addressOf.put(key, address);
        }
        case 2 -> {
          Lease held = model.get(key);
          if (held != null && table.release(addressOf.get(key), key, held.id()).isPresent()) {
            model.remove(key);
          }
        }
        default -> {
          Instant at = now;
          List<String> expected =
              model.entrySet().stream()
                  .filter(e -> addressOf.get(e.getKey()).equals(address))
                  .filter(e -> e.getValue().isExpiredAt(at))
                  .map(java.util.Map.Entry::getKey)
                  .toList();
          assertThat(table.takeExpired(address, now))
              .extracting(LeaseTable.Leased::key)
              .as("step %d", step)
              .containsExactlyElementsOf(expected);
          expected.forEach(model::remove);
        }
      }
    }
    assertThat(table.size()).isEqualTo(model.size());
  }
}
