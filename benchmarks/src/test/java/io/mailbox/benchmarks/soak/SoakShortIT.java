package io.mailbox.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The soak's short version, run by failsafe in every build ({@code bin/test}, {@code .ci/run}):
 * 20,000 messages through {@code mem:} and through {@code jdbc:} on the local PostgreSQL (its own
 * {@code mailbox_soak} database), with the same subscribers, leases and failures as {@code
 * bin/soak}'s million. Fails on a series that grows, a message lost or a message applied twice.
 * About 25 s on a 2-core machine.
 */
class SoakShortIT {
  /**
   * Growth already known and reported, not yet fixed: {@code MBX_QUEUE_SEEN} keeps a row for every
   * id the dedupe window ever admitted (an expired row is only reused when the same id is posted
   * again), so it grows by one row per message for ever — docs/benchmarks.md, "Soak". Remove it
   * from this set once the provider purges expired sightings; every other series must stay flat.
   */
  private static final Set<String> KNOWN_OPEN_GROWTH = Set.of("jdbc.seen");

  @Test
  void twentyThousandMessagesLoseNothingAndLeaveHeapAndBookkeepingFlat() throws Exception {
    List<ProviderSoak> results = Soak.run(20_000, List.of("mem", "jdbc"), System.out);

    assertThat(results).extracting(ProviderSoak::scheme).containsExactly("mem", "jdbc");
    for (ProviderSoak soak : results) {
      assertThat(soak.checkpoints()).as(soak.scheme() + " checkpoints").hasSize(10);
      assertThat(soak.missing()).as(soak.scheme() + ": messages lost").isZero();
      assertThat(soak.duplicates()).as(soak.scheme() + ": messages applied twice").isZero();
      assertThat(soak.growing())
          .as(soak.scheme() + ": series growing (" + Flatness.rule() + ")")
          .isSubsetOf(KNOWN_OPEN_GROWTH);
    }
  }
}
