package io.mailbox.console.dashboard;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The recent unread counts of every address, for the dashboard's trend lines: one sample per
 * address at most every {@link #MIN_INTERVAL}, the last {@link #SAMPLES} kept, shared by every open
 * dashboard (so a reload does not start from nothing).
 */
@ApplicationScoped
public class BacklogHistory {
  static final int SAMPLES = 60;
  static final Duration MIN_INTERVAL = Duration.ofSeconds(2);

  private final Map<String, Deque<Long>> samples = new ConcurrentHashMap<>();
  private volatile Instant lastSample = Instant.EPOCH;

  /** Records the rows' unread counts unless a sample was taken less than the interval ago. */
  public void record(List<AddressRow> rows, Instant now) {
    synchronized (this) {
      if (Duration.between(lastSample, now).compareTo(MIN_INTERVAL) < 0) {
        return;
      }
      lastSample = now;
    }
    for (AddressRow row : rows) {
      Deque<Long> series = samples.computeIfAbsent(row.address(), a -> new ArrayDeque<>());
      synchronized (series) {
        series.addLast(row.unread());
        while (series.size() > SAMPLES) {
          series.removeFirst();
        }
      }
    }
  }

  /** The samples of one address, oldest first. */
  public List<Long> of(String address) {
    Deque<Long> series = samples.get(address);
    if (series == null) {
      return List.of();
    }
    synchronized (series) {
      return List.copyOf(series);
    }
  }
}
