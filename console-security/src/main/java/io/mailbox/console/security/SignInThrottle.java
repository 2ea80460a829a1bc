package io.mailbox.console.security;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down password guessing, per account and per client address alike: the first {@value
 * #FREE_FAILURES} refused sign-ins cost nothing; after that each one makes the next attempt wait,
 * twice as long each time from {@link #FIRST_DELAY} up to {@link #MAX_DELAY}; the {@value
 * #LOCKOUT_FAILURES}th locks the account (or the address) out for {@link #LOCKOUT}. An attempt made
 * while waiting is refused without looking at its password (and does not count). A sign-in that
 * succeeds forgets the account's and the address's failures; failures older than {@link #LOCKOUT}
 * are forgotten too.
 *
 * <p>The account lockout is also a way for anyone to keep an operator out for {@link #LOCKOUT};
 * that is the price of stopping a guesser who spreads attempts over many addresses
 * (docs/security.md).
 */
public final class SignInThrottle {
  /** Refused sign-ins that cost no delay. */
  public static final int FREE_FAILURES = 3;

  /** The wait after the first refusal beyond the free ones. */
  public static final Duration FIRST_DELAY = Duration.ofSeconds(1);

  /** The longest wait before the lockout. */
  public static final Duration MAX_DELAY = Duration.ofSeconds(30);

  /** Refused sign-ins in a row that lock the account or the address out. */
  public static final int LOCKOUT_FAILURES = 10;

  /** How long a lockout lasts, and how long failures are remembered. */
  public static final Duration LOCKOUT = Duration.ofMinutes(15);

  /** Most keys remembered; beyond it, forgotten ones are dropped first. */
  static final int MAX_KEYS = 100_000;

  private record Failures(int count, Instant last, Instant notBefore) {}

  private final Map<String, Failures> failures = new ConcurrentHashMap<>();

  /** How long the attempt must wait, or empty when it may be checked now. */
  public Optional<Duration> waitBefore(String account, String clientAddress, Instant now) {
    Instant until =
        later(notBefore(accountKey(account), now), notBefore(addressKey(clientAddress), now));
    return until.isAfter(now) ? Optional.of(Duration.between(now, until)) : Optional.empty();
  }

  /** Counts a refused sign-in against the account and the address. */
  public void refused(String account, String clientAddress, Instant now) {
    if (failures.size() > MAX_KEYS) {
      failures.values().removeIf(f -> f.last().plus(LOCKOUT).isBefore(now));
      if (failures.size() > MAX_KEYS) {
        // Memory stays bounded even under a flood of made-up names; the flood itself keeps
        // counting from here.
        failures.clear();
      }
    }
    count(accountKey(account), now);
    count(addressKey(clientAddress), now);
  }

  /** Forgets the failures of the account and the address. */
  public void succeeded(String account, String clientAddress) {
    failures.remove(accountKey(account));
    failures.remove(addressKey(clientAddress));
  }

  private void count(String key, Instant now) {
    failures.compute(
        key,
        (k, before) -> {
          int count =
              before == null || before.last().plus(LOCKOUT).isBefore(now) ? 1 : before.count() + 1;
          return new Failures(count, now, now.plus(delayAfter(count)));
        });
  }

  /** The wait after {@code count} refusals in a row. */
  static Duration delayAfter(int count) {
    if (count >= LOCKOUT_FAILURES) {
      return LOCKOUT;
    }
    if (count <= FREE_FAILURES) {
      return Duration.ZERO;
    }
    Duration delay = FIRST_DELAY.multipliedBy(1L << Math.min(20, count - FREE_FAILURES - 1));
    return delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
  }

  private Instant notBefore(String key, Instant now) {
    Failures known = failures.get(key);
    return known == null ? now : known.notBefore();
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static String accountKey(String account) {
    return "account:" + (account == null ? "" : account.strip());
  }

  private static String addressKey(String clientAddress) {
    return "address:" + clientAddress;
  }
}
