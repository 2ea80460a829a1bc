package io.mailbox.console.dashboard;

import io.mailbox.connector.api.AddressStatus;
import java.time.Duration;
import java.time.Instant;

/**
 * One dashboard line, derived from an {@link AddressStatus}: plain values the grid shows and sorts.
 *
 * @param subscribers the provider's {@code <scheme>.subscriberCount}, or -1 when it does not report
 *     one
 * @param overdue in-flight copies whose lease ended ({@code <scheme>.overdueInFlightCount}), or -1
 * @param parked records parked at the address ({@code <scheme>.parkedCount}), or -1
 * @param oldestUnreadMs how long the oldest unread message has waited ({@code
 *     <scheme>.oldestUnreadMs}), or -1 when not measured
 */
public record AddressRow(
    String address,
    String provider,
    String state,
    long unread,
    long inFlight,
    long subscribers,
    Instant lastActivity,
    long overdue,
    long parked,
    long oldestUnreadMs) {

  static AddressRow of(AddressStatus status) {
    String scheme = status.address().scheme();
    return new AddressRow(
        status.address().toString(),
        scheme,
        status.state().label(),
        status.unreadCount(),
        status.inFlightCount(),
        count(status, scheme + ".subscriberCount"),
        status.lastActivity(),
        count(status, scheme + ".overdueInFlightCount"),
        count(status, scheme + ".parkedCount"),
        count(status, scheme + ".oldestUnreadMs"));
  }

  private static long count(AddressStatus status, String key) {
    return status.extensions().get(key) instanceof Number n ? n.longValue() : -1;
  }

  /** Whether an operator should look: not online, leases overdue, or records parked. */
  boolean needsAttention() {
    return !(state.equals("online") || state.equals("unknown")) || overdue > 0 || parked > 0;
  }

  static String countText(long count) {
    return count < 0 ? "–" : Long.toString(count);
  }

  /**
   * "never", "just now", "42 s ago", "5 min ago", "3 h ago" or "2 d ago", measured at {@code now}.
   */
  String lastActivityAgo(Instant now) {
    if (lastActivity == null) {
      return "never";
    }
    Duration age = Duration.between(lastActivity, now);
    return age.getSeconds() < 1 ? "just now" : span(age) + " ago";
  }

  /** "–" when not measured, "0 s" when nothing waits, else "42 s", "5 min", "3 h" or "2 d". */
  String oldestUnreadText() {
    return oldestUnreadMs < 0 ? "–" : span(Duration.ofMillis(oldestUnreadMs));
  }

  /** A duration as a person reads it, in its largest whole unit. */
  private static String span(Duration age) {
    if (age.toMinutes() < 1) {
      return age.getSeconds() + " s";
    }
    if (age.toHours() < 1) {
      return age.toMinutes() + " min";
    }
    if (age.toDays() < 1) {
      return age.toHours() + " h";
    }
    return age.toDays() + " d";
  }

  String subscribersText() {
    return subscribers < 0 ? "–" : Long.toString(subscribers);
  }
}
