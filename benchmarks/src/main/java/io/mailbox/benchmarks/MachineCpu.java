package io.mailbox.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy the whole machine's CPUs were over a stretch (Linux {@code /proc/stat}): the broker, the
 * database and the benchmark share two cores here, so a run that keeps them busy is bound by the
 * machine, not by one process's waits.
 */
final class MachineCpu {
  private MachineCpu() {}

  /**
   * The aggregate CPU line's counters (user … steal), or an empty array where it cannot be read.
   */
  static long[] ticks() {
    try {
      String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long[] ticks = new long[Math.min(8, fields.length - 1)];
      for (int i = 0; i < ticks.length; i++) {
        ticks[i] = Long.parseLong(fields[i + 1]);
      }
      return ticks;
    } catch (IOException | RuntimeException e) {
      return new long[0];
    }
  }

  /** The share of CPU time not idle nor waiting for I/O between two readings, e.g. "87 %". */
  static String busyPercent(long[] before, long[] after) {
    if (before.length < 5 || after.length != before.length) {
      return "(unknown)";
    }
    long total = 0;
    for (int i = 0; i < after.length; i++) {
      total += after[i] - before[i];
    }
    long idle = (after[3] - before[3]) + (after[4] - before[4]); // idle, iowait
    return total <= 0 ? "(unknown)" : Math.round(100.0 * (total - idle) / total) + " %";
  }
}
