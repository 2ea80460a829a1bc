package io.mailbox.ejb.metrics;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.ejb.alerts.AlertState;
import io.mailbox.ejb.operations.OutboxOperations.OutboxSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One reading of the adapter for the metrics: the kernel's counters per address ({@link
 * AddressTraffic}, read from memory) and, when the snapshot answered within its bound, the gauges
 * per address and provider. Immutable; the mean publish latency is over the interval since the
 * reading before (zero when nothing was posted in it), so it moves with the traffic instead of
 * averaging the whole uptime.
 *
 * @param snapshot empty when the snapshot timed out or failed (the gauges keep their last values)
 * @param publishLatencySeconds by {@link #key}: the mean time of a post since the reading before
 * @param statuses the snapshot's addresses by name
 * @param outbox the outbox and inbox tables' counts, when their probe answered within its bound
 * @param alerts the alert rules' active breaches and the breaches begun, per rule ({@link
 *     AlertState})
 */
public record TrafficReading(
    Instant takenAt,
    List<AddressTraffic> traffic,
    Optional<Snapshot> snapshot,
    Map<String, Double> publishLatencySeconds,
    Map<String, AddressStatus> statuses,
    Optional<OutboxSummary> outbox,
    Optional<AlertState.Report> alerts) {

  /** Overdue copies as a provider reports them, when it can tell ({@code <scheme>.<key>}). */
  static final String OVERDUE_EXTENSION = "overdueInFlightCount";

  /** The reading before any was taken. */
  public static TrafficReading empty() {
    return new TrafficReading(
        Instant.EPOCH,
        List.of(),
        Optional.empty(),
        Map.of(),
        Map.of(),
        Optional.empty(),
        Optional.empty());
  }

  /** A reading taken now, its latencies measured against {@code previous}. */
  public static TrafficReading of(
      List<AddressTraffic> traffic, Optional<Snapshot> snapshot, TrafficReading previous) {
    Map<String, AddressTraffic> before = new HashMap<>();
    previous.traffic().forEach(counted -> before.put(key(counted), counted));
    Map<String, Double> latency = new HashMap<>();
    for (AddressTraffic counted : traffic) {
      AddressTraffic earlier = before.get(key(counted));
      long posts = counted.posted() + counted.publishFailures();
      long nanos = counted.publishNanos();
      if (earlier != null) {
        posts -= earlier.posted() + earlier.publishFailures();
        nanos -= earlier.publishNanos();
      }
      latency.put(key(counted), posts <= 0 ? 0.0 : nanos / 1e9 / posts);
    }
    Map<String, AddressStatus> statuses = new HashMap<>();
    snapshot.ifPresent(
        taken ->
            taken.addresses().forEach(status -> statuses.put(status.address().toString(), status)));
    return new TrafficReading(
        Instant.now(),
        List.copyOf(traffic),
        snapshot,
        Map.copyOf(latency),
        Map.copyOf(statuses),
        Optional.empty(),
        Optional.empty());
  }

  /** This reading with the outbox tables' counts ({@link OutboxGauge}). */
  public TrafficReading withOutbox(Optional<OutboxSummary> summary) {
    return new TrafficReading(
        takenAt, traffic, snapshot, publishLatencySeconds, statuses, summary, alerts);
  }

  /** This reading with the alert rules' report ({@link AlertGauge}). */
  public TrafficReading withAlerts(AlertState.Report report) {
    return new TrafficReading(
        takenAt, traffic, snapshot, publishLatencySeconds, statuses, outbox, Optional.of(report));
  }

  /** How old this reading is. */
  public Duration age() {
    return Duration.between(takenAt, Instant.now());
  }

  /** The key of an address's counters: provider and address (the same name on two schemes). */
  static String key(AddressTraffic counted) {
    return key(counted.scheme(), counted.address());
  }

  static String key(String scheme, String address) {
    return scheme + " " + address;
  }

  /**
   * Every address to export, as (scheme, address) pairs in order: those with counters and those the
   * snapshot lists (a backlog left from before a restart has no counters yet, but has gauges).
   */
  java.util.SortedMap<String, String[]> exported() {
    java.util.SortedMap<String, String[]> all = new java.util.TreeMap<>();
    traffic.forEach(
        counted -> all.put(key(counted), new String[] {counted.scheme(), counted.address()}));
    statuses
        .values()
        .forEach(
            status -> {
              String scheme = status.address().scheme();
              String address = status.address().toString();
              all.putIfAbsent(key(scheme, address), new String[] {scheme, address});
            });
    return all;
  }

  /** The address gauges of the last snapshot that answered. */
  List<AddressStatus> addresses() {
    return snapshot.map(Snapshot::addresses).orElse(List.of());
  }

  List<ProviderState> providers() {
    return snapshot.map(Snapshot::providers).orElse(List.of());
  }

  /** Overdue copies at {@code status}, when its provider counts them. */
  static Optional<Long> overdue(AddressStatus status) {
    Object value = status.extensions().get(status.address().scheme() + "." + OVERDUE_EXTENSION);
    return value instanceof Number number ? Optional.of(number.longValue()) : Optional.empty();
  }

  /** A gauge's value now; 0 where this reading has none (an address gone from the snapshot). */
  double gauge(AddressGauge gauge, String scheme, String address) {
    return gauge.of(this, scheme, address).orElse(0.0);
  }

  /** A provider's reachability in this reading; -1 (unknown) when it is not listed. */
  int reachability(String scheme) {
    return providers().stream()
        .filter(provider -> provider.scheme().equals(scheme))
        .findFirst()
        .map(TrafficReading::reachability)
        .orElse(-1);
  }

  /** A provider's reachability as a number: 1 up, 0 down, -1 unknown (a gauge holds numbers). */
  static int reachability(ProviderState provider) {
    return provider.reachability() == Reachability.UP
        ? 1
        : provider.reachability() == Reachability.DOWN ? 0 : -1;
  }
}
