package io.mailbox.ejb.metrics;

import io.mailbox.connector.api.AddressStatus;
import java.util.Optional;

/**
 * Every per-address gauge the product exports, declared once, with where its value comes from in a
 * {@link TrafficReading}: the publish latency from the kernel's counters, the rest from the last
 * snapshot that answered. Tagged {@code provider} and {@code address}, like {@link TrafficMetric}.
 */
public enum AddressGauge {
  PUBLISH_LATENCY(
      "mailbox_publish_latency_seconds",
      "Mean time of a post over the interval between two readings (0 without posts)"),
  UNREAD("mailbox_unread", "Messages waiting at the address"),
  IN_FLIGHT("mailbox_in_flight", "Messages handed out and not settled"),
  OVERDUE("mailbox_overdue", "Messages in flight past their lease (providers that count them)");

  /** A provider's reachability, tagged {@code provider} only: 1 up, 0 down, -1 unknown. */
  public static final String PROVIDER_REACHABLE = "mailbox_provider_reachable";

  static final String PROVIDER_REACHABLE_HELP =
      "Whether the provider answers: 1 up, 0 down, -1 unknown";

  private final String metricName;
  private final String help;

  AddressGauge(String metricName, String help) {
    this.metricName = metricName;
    this.help = help;
  }

  public String metricName() {
    return metricName;
  }

  public String help() {
    return help;
  }

  /** The value at {@code address} of {@code scheme}, or empty where there is none to give. */
  public Optional<Double> of(TrafficReading reading, String scheme, String address) {
    if (this == PUBLISH_LATENCY) {
      return Optional.ofNullable(
          reading.publishLatencySeconds().get(TrafficReading.key(scheme, address)));
    }
    AddressStatus status = reading.statuses().get(address);
    if (status == null) {
      return Optional.empty();
    }
    return switch (this) {
      case UNREAD -> Optional.of((double) status.unreadCount());
      case IN_FLIGHT -> Optional.of((double) status.inFlightCount());
      case OVERDUE -> TrafficReading.overdue(status).map(Long::doubleValue);
      default -> Optional.empty();
    };
  }
}
