package io.mailbox.ejb.alerts;

import io.mailbox.connector.api.AddressStatus;
import java.util.Arrays;
import java.util.Optional;

/**
 * What a threshold limits, read from one address's status. A measure the address's provider does
 * not report is "not measured" (empty), never zero: a rule on it cannot breach, and the console
 * says so instead of showing a green zero.
 */
public enum AlertMeasure {
  /** Messages waiting to be delivered. */
  BACKLOG("backlog"),
  /** Copies handed out and not yet settled. */
  IN_FLIGHT("in-flight"),
  /**
   * Handed-out copies whose lease ended without a settlement ({@code
   * <scheme>.overdueInFlightCount}).
   */
  OVERDUE("overdue"),
  /** Records parked at the address ({@code <scheme>.parkedCount}). */
  PARKED("parked"),
  /** Dead letters waiting at a dead-letter address (its backlog; other addresses have none). */
  DEAD_LETTERS("dead-letters"),
  /**
   * Seconds the oldest unread message has waited ({@code <scheme>.oldestUnreadMs}, where the
   * provider can peek). Not measured at a dead-letter address: its records wait for an operator by
   * design, and {@link #DEAD_LETTERS} already speaks for them.
   */
  OLDEST_UNREAD("oldest-unread");

  private final String key;

  AlertMeasure(String key) {
    this.key = key;
  }

  /** The name in settings, the admin API and the metrics' tags. */
  public String key() {
    return key;
  }

  /** {@code value} with its unit, for people: "412 s" for a wait, "3" for a count. */
  public String shown(long value) {
    return this == OLDEST_UNREAD ? value + " s" : Long.toString(value);
  }

  public static Optional<AlertMeasure> byKey(String key) {
    return Arrays.stream(values()).filter(m -> m.key.equals(key)).findFirst();
  }

  /**
   * @param deadLetterAddress whether the address is where some address's dead letters go
   */
  Optional<Long> of(AddressStatus status, boolean deadLetterAddress) {
    String scheme = status.address().scheme();
    return switch (this) {
      case BACKLOG -> Optional.of(status.unreadCount());
      case IN_FLIGHT -> Optional.of(status.inFlightCount());
      case OVERDUE -> extension(status, scheme + ".overdueInFlightCount");
      case PARKED -> extension(status, scheme + ".parkedCount");
      case DEAD_LETTERS -> deadLetterAddress ? Optional.of(status.unreadCount()) : Optional.of(0L);
      case OLDEST_UNREAD ->
          deadLetterAddress
              ? Optional.empty()
              : extension(status, scheme + ".oldestUnreadMs").map(millis -> millis / 1_000);
    };
  }

  private static Optional<Long> extension(AddressStatus status, String key) {
    return status.extensions().get(key) instanceof Number n
        ? Optional.of(n.longValue())
        : Optional.empty();
  }
}
