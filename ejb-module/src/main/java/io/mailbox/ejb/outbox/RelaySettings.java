package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;

/**
 * How a relay sweeps. Checked when built (a refusal is {@code MBX-1008}): timeouts, lease and
 * deadline positive, skew, backoffs and retention not negative; the claim must cover a publish, two
 * store writes and the clock skew, and a row may start only while that much of the sweep deadline
 * remains.
 *
 * @param scanLimit rows examined per sweep
 * @param publishLimit rows published per sweep
 * @param maxAttempts failed publishes before a row is failed
 * @param baseBackoff wait after the first failure, doubling per attempt
 * @param maxBackoff longest wait
 * @param claimLease how long a claim holds a row
 * @param maxClockSkew how far relays' clocks may disagree; another relay waits this long past a
 *     lease
 * @param publishTimeout the time a publish may take
 * @param storeTimeout the time one store write may take
 * @param sweepDeadline the whole sweep's budget
 * @param maxEnvelopeBytes the largest envelope a write accepts (UTF-8)
 * @param retainSent how long sent and discarded rows are kept
 */
public record RelaySettings(
    int scanLimit,
    int publishLimit,
    int maxAttempts,
    Duration baseBackoff,
    Duration maxBackoff,
    Duration claimLease,
    Duration maxClockSkew,
    Duration publishTimeout,
    Duration storeTimeout,
    Duration sweepDeadline,
    int maxEnvelopeBytes,
    Duration retainSent) {

  public RelaySettings {
    if (scanLimit < 1 || publishLimit < 1 || maxAttempts < 1 || maxEnvelopeBytes < 1) {
      throw invalid("scanLimit, publishLimit, maxAttempts and maxEnvelopeBytes must be at least 1");
    }
    requirePositive("claimLease", claimLease);
    requirePositive("publishTimeout", publishTimeout);
    requirePositive("storeTimeout", storeTimeout);
    requirePositive("sweepDeadline", sweepDeadline);
    // A negative skew would shorten the claim another relay waits for, so two relays could publish
    // one row at once; zero says the clocks agree.
    requireNonNegative("maxClockSkew", maxClockSkew);
    requireNonNegative("baseBackoff", baseBackoff);
    requireNonNegative("maxBackoff", maxBackoff);
    requireNonNegative("retainSent", retainSent);
    Duration reserved = publishTimeout.plus(storeTimeout.multipliedBy(2));
    if (reserved.compareTo(sweepDeadline) >= 0) {
      throw invalid(
          "publishTimeout + 2 × storeTimeout ("
              + reserved
              + ") must be less than sweepDeadline ("
              + sweepDeadline
              + ")");
    }
    if (claimLease.compareTo(reserved.plus(maxClockSkew)) < 0) {
      throw invalid("claimLease must cover publishTimeout + 2 × storeTimeout + maxClockSkew");
    }
    if (maxBackoff.compareTo(baseBackoff) < 0) {
      throw invalid("maxBackoff must be at least baseBackoff");
    }
  }

  private static void requirePositive(String name, Duration value) {
    requireNonNegative(name, value);
    if (value.isZero()) {
      throw invalid(name + " must be positive");
    }
  }

  /**
   * Refuses a missing or negative duration, and one too long to count in milliseconds (the relay
   * computes in milliseconds; sums of checked values then fit too, being bounded by the deadline
   * and the claim).
   */
  private static void requireNonNegative(String name, Duration value) {
    if (value == null || value.isNegative()) {
      throw invalid(name + " must be given and not negative");
    }
    try {
      value.toMillis();
    } catch (ArithmeticException e) {
      throw invalid(name + " is too long to count in milliseconds");
    }
  }

  private static MailboxException invalid(String why) {
    return new MailboxException(
        ErrorCode.INVALID_POLICY, "Invalid outbox relay settings: " + why + ".");
  }

  /** The documented defaults. */
  public static RelaySettings defaults() {
    return new RelaySettings(
        2000,
        2000, // a sweep of several batches: the next one is claimed while one is published
        10,
        Duration.ofSeconds(1),
        Duration.ofMinutes(5),
        Duration.ofSeconds(30),
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        Duration.ofSeconds(30),
        262_144,
        Duration.ofDays(7));
  }

  /** The wait after failed attempt {@code attempts} (1-based). */
  Duration backoffAfter(int attempts) {
    return io.mailbox.connector.spi.Backoff.after(attempts, baseBackoff, maxBackoff);
  }

  /** What a claimed row must still have left before its publish may start. */
  Duration reservedPerRow() {
    return publishTimeout.plus(storeTimeout.multipliedBy(2)).plus(maxClockSkew);
  }

  public RelaySettings withLimits(int scan, int publish) {
    return new RelaySettings(
        scan,
        publish,
        maxAttempts,
        baseBackoff,
        maxBackoff,
        claimLease,
        maxClockSkew,
        publishTimeout,
        storeTimeout,
        sweepDeadline,
        maxEnvelopeBytes,
        retainSent);
  }

  public RelaySettings withAttempts(int attempts, Duration base) {
    return new RelaySettings(
        scanLimit,
        publishLimit,
        attempts,
        base,
        maxBackoff.compareTo(base) < 0 ? base : maxBackoff,
        claimLease,
        maxClockSkew,
        publishTimeout,
        storeTimeout,
        sweepDeadline,
        maxEnvelopeBytes,
        retainSent);
  }
}
