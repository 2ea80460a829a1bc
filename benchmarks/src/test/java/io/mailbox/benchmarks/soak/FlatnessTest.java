package io.mailbox.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/** The leak verdict on made-up series: what it must flag and what it must let pass. */
class FlatnessTest {
  private static final long MB = 1024 * 1024;

  /** Ten checkpoints; checkpoint i (1-based) has heap {@code heap(i)} and size {@code size(i)}. */
  private static List<Checkpoint> run(IntToLongFunction heap, IntToLongFunction size) {
    List<Checkpoint> checkpoints = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      checkpoints.add(
          new Checkpoint(i * 1000, 1000, heap.applyAsLong(i), Map.of("x", size.applyAsLong(i))));
    }
    return checkpoints;
  }

  @Test
  void aSizeThatGrowsWithTheMessagesIsFlagged() {
    assertThat(Flatness.growing(run(i -> 10 * MB, i -> i * 1000L))).containsExactly("x");
  }

  @Test
  void aHeapThatGrowsWithTheMessagesIsFlagged() {
    assertThat(Flatness.growing(run(i -> 10 * MB + i * 4 * MB, i -> 5)))
        .containsExactly(Flatness.HEAP);
  }

  @Test
  void aGaugeThatMovesWithTheRateIsNotGrowth() {
    long[] leases = {3, 106, 312, 1022, 719, 818, 1227, 819, 818, 1300};
    assertThat(Flatness.growing(run(i -> 10 * MB + (i % 3) * MB, i -> leases[i - 1]))).isEmpty();
  }

  @Test
  void warmUpInTheFirstCheckpointIsNotGrowth() {
    assertThat(Flatness.growing(run(i -> i == 1 ? 2 * MB : 40 * MB, i -> i == 1 ? 0 : 500)))
        .isEmpty();
  }

  @Test
  void theDedupeWindowsSawToothIsNotGrowthButAStoppedSweepIs() {
    // Session 27's CI: the sightings at each checkpoint, the rate climbing to about 2,500 msg/s.
    long[] seen = {2_040, 1_640, 2_352, 2_453, 2_351, 4_391, 4_081, 3_571, 2_658, 4_698};
    assertThat(Flatness.growing(sightings(i -> seen[i - 1], 2_527))).isEmpty();

    assertThat(Flatness.growing(sightings(i -> i * 2_000L, 2_527)))
        .as("no sweep: every sighting kept")
        .containsExactly(Flatness.DEDUPE_SIGHTINGS);
  }

  private static List<Checkpoint> sightings(IntToLongFunction seen, double rate) {
    List<Checkpoint> checkpoints = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      checkpoints.add(
          new Checkpoint(
              i * 2000, rate, 10 * MB, Map.of(Flatness.DEDUPE_SIGHTINGS, seen.applyAsLong(i))));
    }
    return checkpoints;
  }
}
