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
    long parked) {

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
        count(status, scheme + ".parkedCount"));
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
    if (age.getSeconds() < 1) {
      return "just now";
    }
    if (age.toMinutes() < 1) {
      return age.getSeconds() + " s ago";
    }
    if (age.toHours() < 1) {
      return age.toMinutes() + " min ago";
    }
    if (age.toDays() < 1) {
      return age.toHours() + " h ago";
    }
    return age.toDays() + " d ago";
  }

  String subscribersText() {
    return subscribers < 0 ? "–" : Long.toString(subscribers);
  }
}
