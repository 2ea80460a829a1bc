package io.mailbox.ejb.metrics;

import io.mailbox.connector.api.AddressTraffic;
import java.util.function.ToLongFunction;

/**
 * Every per-address counter the product exports, declared once: its name, what it counts, and where
 * it comes from in {@link AddressTraffic}. Both exports (MicroProfile Metrics and the admin API's
 * Prometheus text) are built from this list, tagged {@code provider} and {@code address}.
 */
public enum TrafficMetric {
  POSTED(
      "mailbox_posted_total",
      "Copies the provider accepted (on a durable provider: stored)",
      AddressTraffic::posted),
  PUBLISH_FAILURES(
      "mailbox_publish_failures_total",
      "Posts that failed (a timed-out post may still arrive)",
      AddressTraffic::publishFailures),
  DELIVERED(
      "mailbox_delivered_total",
      "Copies handed out to a subscriber or a fetch, redeliveries included",
      AddressTraffic::delivered),
  ACKNOWLEDGED(
      "mailbox_acknowledged_total", "Copies settled as handled", AddressTraffic::acknowledged),
  RETRIED(
      "mailbox_retried_total",
      "Attempts after a failed one: a retry policy's redeliveries and requeues",
      AddressTraffic::retried),
  DEAD_LETTERED(
      "mailbox_dead_lettered_total",
      "Copies given up and archived to their dead-letter topic",
      AddressTraffic::deadLettered),
  PARKED(
      "mailbox_parked_total",
      "Copies given up at the end of the dead-letter chain, parked at their address",
      AddressTraffic::parked),
  DROPPED(
      "mailbox_dropped_total",
      "Copies given up with no dead-letter queue configured",
      AddressTraffic::dropped);

  private final String metricName;
  private final String help;
  private final ToLongFunction<AddressTraffic> value;

  TrafficMetric(String metricName, String help, ToLongFunction<AddressTraffic> value) {
    this.metricName = metricName;
    this.help = help;
    this.value = value;
  }

  public String metricName() {
    return metricName;
  }

  public String help() {
    return help;
  }

  public long of(AddressTraffic counted) {
    return value.applyAsLong(counted);
  }
}
