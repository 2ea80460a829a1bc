package io.mailbox.ejb.outbox;

import java.time.Duration;

/**
 * How a relay sweeps. Checked when built: the claim must cover a publish, two store writes and the
 * clock skew, and a row may start only while that much of the sweep deadline remains.
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
    if (baseBackoff.isNegative()
        || maxBackoff.compareTo(baseBackoff) < 0
        || retainSent.isNegative()) {
      throw invalid("backoffs and retention must be non-negative, maxBackoff at least baseBackoff");
    }
  }

  private static IllegalArgumentException invalid(String why) {
    return new IllegalArgumentException("MBX-1008 Invalid outbox relay settings: " + why + ".");
  }

  /** The documented defaults. */
  public static RelaySettings defaults() {
    return new RelaySettings(
        1000,
        100,
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
    int exponent = Math.max(0, Math.min(attempts - 1, 30));
    long millis = Math.min(maxBackoff.toMillis(), baseBackoff.toMillis() << Math.min(exponent, 40));
    return Duration.ofMillis(millis < 0 ? maxBackoff.toMillis() : millis);
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
