package io.mailbox.connector.provider.kafka;

import java.time.Duration;

/**
 * Lets something happen at most once per interval, for the one thread that asks (a poll thread):
 * commits and scans that would cost a request or a pass at every turn of a busy loop.
 */
final class AtMostEvery {
  /** The readers' commit interval: a crash redelivers at most this much more of settled records. */
  static final long COMMIT_NANOS = Duration.ofMillis(20).toNanos();

  private final long defaultIntervalNanos;
  private boolean ever;
  private long lastNanos;

  /** Due at the first ask, then at most every {@code intervalNanos}. */
  AtMostEvery(long intervalNanos) {
    this.defaultIntervalNanos = intervalNanos;
  }

  /** Whether it is due at {@code now} (then counted as done). */
  boolean due(long now) {
    return due(now, defaultIntervalNanos);
  }

  /** Whether it is due at {@code now} with an interval that changes (then counted as done). */
  boolean due(long now, long intervalNanos) {
    if (ever && now - lastNanos < intervalNanos) {
      return false;
    }
    ever = true;
    lastNanos = now;
    return true;
  }
}
