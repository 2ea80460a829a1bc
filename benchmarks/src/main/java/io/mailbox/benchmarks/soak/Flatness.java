package io.mailbox.benchmarks.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * The leak verdict: a series is flat when its value at the last checkpoint is within a tolerance of
 * its reference, the largest value of the first half of the run leaving out the first checkpoint
 * (which still holds warm-up: JIT, pools, class loading) — checkpoints 2 to 5 of 10. A leak grows
 * with the messages, so it at least doubles from the middle of the run to its end; a gauge that
 * moves with the rate (leases in flight, sightings inside the dedupe window) has already shown its
 * range in the reference checkpoints, so one low sample cannot make a later normal one look like
 * growth.
 *
 * <ul>
 *   <li>heap after GC: at most {@value #HEAP_RELATIVE} times the reference, or the reference plus
 *       {@value #HEAP_SLACK_MB} MB, whichever is more;
 *   <li>each bookkeeping size: at most {@value #SIZE_RELATIVE} times the reference, or the
 *       reference plus {@value #SIZE_SLACK} entries, whichever is more;
 *   <li>{@value #DEDUPE_SIGHTINGS} (every row of the dedupe window's table, expired ones until the
 *       next sweep) may also reach what the window can hold at the last checkpoint's rate: the
 *       sightings of one window plus those expired since the last sweep, which runs every window,
 *       so two windows of posts, with the same tolerance. It is a saw-tooth between one and two
 *       windows whose height follows the rate, and the rate still climbs after the reference
 *       checkpoints (measured: 2,453 at most in them, 4,698 at the end at 2,527 msg/s). A sweep
 *       that stops keeps every sighting: 20,000 at the end of the short run, far over the bound.
 * </ul>
 *
 * <p>It does not catch growth that slows down over the run (logarithmic) or stays under the slack:
 * those need longer runs.
 */
final class Flatness {
  static final double HEAP_RELATIVE = 1.25;
  static final long HEAP_SLACK_MB = 8;
  static final double SIZE_RELATIVE = 1.5;
  static final long SIZE_SLACK = 200;
  static final String HEAP = "heap after GC";
  static final String DEDUPE_SIGHTINGS = "jdbc.seen";

  private Flatness() {}

  /** The limit the last value may reach, given the reference. */
  static long limit(String series, long reference) {
    return HEAP.equals(series)
        ? Math.max((long) (reference * HEAP_RELATIVE), reference + HEAP_SLACK_MB * 1024 * 1024)
        : Math.max((long) (reference * SIZE_RELATIVE), reference + SIZE_SLACK);
  }

  /** The largest value of checkpoints 2 to n/2 (at least the second). */
  static long reference(List<Checkpoint> checkpoints, ToLongFunction<Checkpoint> value) {
    long reference = 0;
    for (int i = 1; i < Math.max(2, checkpoints.size() / 2); i++) {
      reference = Math.max(reference, value.applyAsLong(checkpoints.get(i)));
    }
    return reference;
  }

  /** Every series of a run: heap after GC, then the bookkeeping sizes by name. */
  static List<String> series(List<Checkpoint> checkpoints) {
    Set<String> names = new TreeSet<>();
    checkpoints.forEach(checkpoint -> names.addAll(checkpoint.sizes().keySet()));
    List<String> all = new ArrayList<>();
    all.add(HEAP);
    all.addAll(names);
    return all;
  }

  static ToLongFunction<Checkpoint> value(String series) {
    return HEAP.equals(series)
        ? Checkpoint::heapAfterGc
        : checkpoint -> checkpoint.sizes().getOrDefault(series, 0L);
  }

  /** The series whose last value exceeds its limit; empty when there are fewer than three. */
  static List<String> growing(List<Checkpoint> checkpoints) {
    List<String> growing = new ArrayList<>();
    if (checkpoints.size() < 3) {
      return growing;
    }
    for (String series : series(checkpoints)) {
      ToLongFunction<Checkpoint> value = value(series);
      Checkpoint end = checkpoints.get(checkpoints.size() - 1);
      long last = value.applyAsLong(end);
      long limit = limit(series, reference(checkpoints, value));
      if (DEDUPE_SIGHTINGS.equals(series)) {
        limit = Math.max(limit, limit(series, twoWindowsOfPosts(end.rate())));
      }
      if (last > limit) {
        growing.add(series);
      }
    }
    return growing;
  }

  /** The sightings the dedupe window holds at most between two sweeps, at {@code rate}. */
  static long twoWindowsOfPosts(double rate) {
    return (long) Math.ceil(rate * 2 * SoakRig.DEDUPE_WINDOW.toMillis() / 1000.0);
  }

  static String rule() {
    return String.format(
        "flat = value at the last checkpoint <= max(%.2f x, +%d MB) of the reference for heap after"
            + " GC, <= max(%.1f x, +%d) of it for each bookkeeping size; reference = the largest"
            + " value of checkpoints 2 to n/2 (for "
            + DEDUPE_SIGHTINGS
            + " at least two dedupe windows of posts at the last rate)",
        HEAP_RELATIVE,
        HEAP_SLACK_MB,
        SIZE_RELATIVE,
        SIZE_SLACK);
  }
}
