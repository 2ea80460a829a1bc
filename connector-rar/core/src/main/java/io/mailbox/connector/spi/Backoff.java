package io.mailbox.connector.spi;

import java.time.Duration;

/**
 * The one backoff rule: the wait after failed attempt {@code n} (1-based) is {@code first} doubled
 * {@code n - 1} times, never more than {@code cap}. Used by the kernel's retry policy, the
 * channels' retry delay, the outbox relay and the amqp: reconnect, so no two of them can drift
 * apart (one of them once grew without a cap, to days).
 */
public final class Backoff {
  private Backoff() {}

  /**
   * {@code first × 2^(attempt − 1)}, at most {@code cap}. Saturates instead of overflowing; an
   * attempt below 1 counts as 1.
   */
  public static Duration after(int attempt, Duration first, Duration cap) {
    int exponent = Math.max(0, Math.min(attempt - 1, 62));
    long base = first.toMillis();
    long max = cap.toMillis();
    if (base >= max) {
      return cap;
    }
    return Duration.ofMillis(base > (max >> exponent) ? max : base << exponent);
  }
}
