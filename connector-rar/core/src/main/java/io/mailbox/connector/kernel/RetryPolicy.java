package io.mailbox.connector.kernel;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.Backoff;
import java.io.Serializable;
import java.time.Duration;

/**
 * Opt-in redelivery of a failing subscriber: up to {@code maxAttempts} attempts (the first
 * included), waiting {@code baseDelay × 2^(attempt-1)}, at most {@code maxDelay}, between them.
 * Only the failing subscriber is retried; a message is never queued twice.
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay)
    implements Serializable {

  public RetryPolicy {
    if (maxAttempts < 1 || maxAttempts > 100) {
      throw invalid("maxAttempts must be between 1 and 100, was " + maxAttempts);
    }
    if (baseDelay == null || baseDelay.isNegative()) {
      throw invalid("baseDelay must be zero or positive");
    }
    if (maxDelay == null || maxDelay.compareTo(baseDelay) < 0) {
      throw invalid("maxDelay must be at least baseDelay");
    }
  }

  /** {@code maxAttempts} attempts starting {@code baseDelay} apart, backoff capped at one hour. */
  public static RetryPolicy of(int maxAttempts, Duration baseDelay) {
    Duration cap = Duration.ofHours(1);
    return new RetryPolicy(maxAttempts, baseDelay, baseDelay.compareTo(cap) > 0 ? baseDelay : cap);
  }

  private static MailboxException invalid(String why) {
    return new MailboxException(ErrorCode.INVALID_POLICY, "Invalid retry policy: " + why + ".");
  }

  /** The wait after failed attempt {@code attempt} (1-based) before the next one. */
  public Duration delayAfter(int attempt) {
    return Backoff.after(attempt, baseDelay, maxDelay);
  }
}
