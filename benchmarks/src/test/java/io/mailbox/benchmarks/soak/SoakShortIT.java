package io.mailbox.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The soak's short version, run by failsafe in every build ({@code bin/test}, {@code .ci/run}):
 * 20,000 messages through {@code mem:} and through {@code jdbc:} on the local PostgreSQL (its own
 * {@code mailbox_soak} database), with the same subscribers, leases and failures as {@code
 * bin/soak}'s million. Fails on a series that grows, a message lost or a message applied twice.
 * About 25 s on a 2-core machine.
 */
class SoakShortIT {
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
          .isEmpty();
    }
  }
}
