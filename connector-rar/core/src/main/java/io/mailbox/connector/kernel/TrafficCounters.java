package io.mailbox.connector.kernel;

import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One provider's {@link AddressTraffic}, counted where the kernel applies its rules (the send
 * boundary, hand-outs, settlements, give-ups), so every provider gets the same counters without a
 * line of its own. Counting is a map lookup and a {@link LongAdder} increment: cheap on the hot
 * path and free of locks. At most {@value #MAX_ADDRESSES} addresses get counters of their own (a
 * metrics system pays for every distinct label); the rest are summed as {@value
 * AddressTraffic#OTHER}.
 */
final class TrafficCounters {
  static final int MAX_ADDRESSES = 1_000;

  private final String scheme;
  private final Map<MailAddress, Counts> byAddress = new ConcurrentHashMap<>();
  private final Counts other = new Counts();

  TrafficCounters(String scheme) {
    this.scheme = scheme;
  }

  /** The counters of {@code address} (those of {@code other} past the bound). */
  Counts of(MailAddress address) {
    Counts counts = byAddress.get(address);
    if (counts != null) {
      return counts;
    }
    if (byAddress.size() >= MAX_ADDRESSES) {
      return other;
    }
    return byAddress.computeIfAbsent(address, ignored -> new Counts());
  }

  /**
   * Runs {@code send} of {@code copies} (a batch: one post counts in place), counting each posted,
   * or failed when it throws, with the call's time. Which copies of a failing batch were stored
   * before the failure only the transport's error can say: each counts as failed.
   */
  void countPosts(List<MailMessage> copies, Runnable send) {
    long start = System.nanoTime();
    try {
      send.run();
    } catch (RuntimeException | Error e) {
      long elapsed = System.nanoTime() - start;
      copies.forEach(copy -> of(copy.to()).publishFailed(elapsed));
      throw e;
    }
    long elapsed = System.nanoTime() - start;
    copies.forEach(copy -> of(copy.to()).posted(elapsed));
  }

  /** Every address counted so far, sorted, then {@code other} when it has counts. */
  List<AddressTraffic> read() {
    List<AddressTraffic> all = new ArrayList<>();
    byAddress.forEach((address, counts) -> all.add(counts.read(address.toString(), scheme)));
    all.sort(Comparator.comparing(AddressTraffic::address));
    if (!other.isEmpty()) {
      all.add(other.read(AddressTraffic.OTHER, scheme));
    }
    return all;
  }

  /** The counters of one address. */
  static final class Counts {
    private final LongAdder posted = new LongAdder();
    private final LongAdder publishFailures = new LongAdder();
    private final LongAdder publishNanos = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final LongAdder parked = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    /** {@link #retried()} as a callback made once, not once per broadcast. */
    final Runnable onRetry = this::retried;

    void posted(long nanos) {
      posted.increment();
      publishNanos.add(nanos);
    }

    void publishFailed(long nanos) {
      publishFailures.increment();
      publishNanos.add(nanos);
    }

    void delivered() {
      delivered.increment();
    }

    void delivered(int copies) {
      delivered.add(copies);
    }

    void acknowledged() {
      acknowledged.increment();
    }

    void acknowledged(int copies) {
      acknowledged.add(copies);
    }

    void retried() {
      retried.increment();
    }

    void deadLettered() {
      deadLettered.increment();
    }

    void parked() {
      parked.increment();
    }

    void dropped() {
      dropped.increment();
    }

    private boolean isEmpty() {
      return posted.sum()
              + publishFailures.sum()
              + delivered.sum()
              + acknowledged.sum()
              + retried.sum()
              + deadLettered.sum()
              + parked.sum()
              + dropped.sum()
          == 0;
    }

    private AddressTraffic read(String address, String scheme) {
      return new AddressTraffic(
          address,
          scheme,
          posted.sum(),
          publishFailures.sum(),
          publishNanos.sum(),
          delivered.sum(),
          acknowledged.sum(),
          retried.sum(),
          deadLettered.sum(),
          parked.sum(),
          dropped.sum());
    }
  }
}
