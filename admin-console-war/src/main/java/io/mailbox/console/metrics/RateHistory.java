package io.mailbox.console.metrics;

import io.mailbox.connector.api.AddressTraffic;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Posted and delivered per second of every address over the last {@link #WINDOW}, from the kernel's
 * counters as the server's metrics read them (every 5 s): each reading's increase over the one
 * before, divided by the time between them. At most {@link #MAX_ADDRESSES} addresses are kept; past
 * that the address idle longest is dropped. A counter that went down (the adapter restarted) starts
 * the address's series afresh instead of charting a negative rate.
 */
public final class RateHistory {
  public static final Duration WINDOW = Duration.ofMinutes(10);
  static final int MAX_ADDRESSES = 2_000;

  /** One interval's rates, ending at {@code at}. */
  public record Point(Instant at, double postedPerSecond, double deliveredPerSecond) {}

  private record Reading(Instant at, long posted, long delivered) {}

  private final Map<String, Reading> last = new HashMap<>();
  private final Map<String, Deque<Point>> series = new LinkedHashMap<>(16, 0.75f, true);

  /** Takes one reading of every address's counters, taken at {@code at}. */
  public synchronized void record(List<AddressTraffic> traffic, Instant at) {
    for (AddressTraffic counted : traffic) {
      String address = counted.address();
      Reading now = new Reading(at, counted.posted(), counted.delivered());
      Reading before = last.put(address, now);
      Deque<Point> points = series.computeIfAbsent(address, a -> new ArrayDeque<>());
      if (before == null) {
        continue;
      }
      double seconds = Duration.between(before.at(), at).toMillis() / 1000.0;
      if (seconds <= 0) {
        continue;
      }
      if (now.posted() < before.posted() || now.delivered() < before.delivered()) {
        points.clear();
        continue;
      }
      points.addLast(
          new Point(
              at,
              (now.posted() - before.posted()) / seconds,
              (now.delivered() - before.delivered()) / seconds));
      while (!points.isEmpty() && points.peekFirst().at().isBefore(at.minus(WINDOW))) {
        points.removeFirst();
      }
    }
    while (series.size() > MAX_ADDRESSES) {
      String idlest = series.keySet().iterator().next();
      series.remove(idlest);
      last.remove(idlest);
    }
  }

  /** The address's rates over the window, oldest first; empty before two readings of it. */
  public synchronized List<Point> of(String address) {
    Deque<Point> points = series.get(address);
    return points == null ? List.of() : List.copyOf(points);
  }
}
