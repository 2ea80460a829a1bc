package io.mailbox.benchmarks.soak;

import java.io.PrintStream;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Prints one provider's soak as a table: a column per checkpoint, then the state after the drain,
 * the last value over the reference ({@link Flatness}) and the verdict per series.
 */
final class SoakTable {
  private static final String ROW = "%-28s";
  private static final String CELL = " %10s";

  private SoakTable() {}

  static void print(PrintStream out, ProviderSoak soak, double[] baseline) {
    List<Checkpoint> checkpoints = soak.checkpoints();
    out.printf(ROW, soak.scheme() + ": messages");
    checkpoints.forEach(c -> out.printf(CELL, thousands(c.messages())));
    out.printf(CELL + CELL + "  %s%n", "drained", "last/ref", "verdict");

    out.printf(ROW, "msg/s");
    checkpoints.forEach(c -> out.printf(CELL, String.format("%,.0f", c.rate())));
    out.printf(CELL + CELL + "%n", "", ratio(checkpoints, c -> (long) c.rate()));
    out.printf(ROW, "baseline msg/s (ABQ)");
    for (int i = 0; i < checkpoints.size(); i++) {
      out.printf(CELL, String.format("%,.0f", baseline[i]));
    }
    out.println();
    out.printf(ROW, "x baseline");
    for (int i = 0; i < checkpoints.size(); i++) {
      out.printf(CELL, String.format("%.4f", checkpoints.get(i).rate() / baseline[i]));
    }
    out.println();

    for (String series : Flatness.series(checkpoints)) {
      ToLongFunction<Checkpoint> value = Flatness.value(series);
      boolean heap = Flatness.HEAP.equals(series);
      out.printf(ROW, heap ? "heap after GC (MB)" : series);
      checkpoints.forEach(c -> out.printf(CELL, format(heap, value.applyAsLong(c))));
      long drained = heap ? soak.drainedHeap() : soak.drained().getOrDefault(series, 0L);
      out.printf(CELL, format(heap, drained));
      out.printf(CELL, ratio(checkpoints, value));
      out.printf("  %s%n", soak.growing().contains(series) ? "GROWS" : "flat");
    }
  }

  private static String format(boolean heap, long value) {
    return heap ? String.format("%.1f", value / 1024.0 / 1024.0) : String.format("%,d", value);
  }

  private static String ratio(List<Checkpoint> checkpoints, ToLongFunction<Checkpoint> value) {
    if (checkpoints.size() < 3) {
      return "";
    }
    long reference = Flatness.reference(checkpoints, value);
    long last = value.applyAsLong(checkpoints.get(checkpoints.size() - 1));
    return reference == 0
        ? (last == 0 ? "=" : "from 0")
        : String.format("%.2f", (double) last / reference);
  }

  static String thousands(int messages) {
    return messages % 1000 == 0
        ? String.format("%,dk", messages / 1000)
        : String.format("%,d", messages);
  }
}
