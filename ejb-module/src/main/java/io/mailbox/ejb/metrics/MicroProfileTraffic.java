package io.mailbox.ejb.metrics;

import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.ejb.alerts.AlertState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * {@link TrafficReading}s on MicroProfile Metrics' application registry ({@code /metrics} on
 * Payara). The kernel keeps the counts; a reading adds to each registered counter what the kernel
 * counted since the reading before (counters only grow: an adapter restarted from zero adds nothing
 * until it passes the total already exported). Gauges are registered once per address and read the
 * newest reading when scraped.
 *
 * <p>A bean of its own, looked up as optional: on a server without MicroProfile Metrics (WildFly
 * 37) its class cannot load, and the console's metrics go on without it ({@code /api/metrics}).
 */
@ApplicationScoped
public class MicroProfileTraffic {
  @Inject MetricRegistry registry;

  private final Map<String, Long> exported = new HashMap<>(); // counter + address → total added
  private final Set<String> gauges = new HashSet<>();
  private volatile TrafficReading current = TrafficReading.empty();

  public synchronized void publish(TrafficReading reading) {
    current = reading;
    for (AddressTraffic counted : reading.traffic()) {
      Tag[] tags = tags(counted.scheme(), counted.address());
      for (TrafficMetric metric : TrafficMetric.values()) {
        String key = metric.metricName() + " " + TrafficReading.key(counted);
        long total = metric.of(counted);
        long before = exported.getOrDefault(key, 0L);
        if (total > before) {
          registry.counter(metadata(metric.metricName(), metric.help()), tags).inc(total - before);
          exported.put(key, total);
        } else if (!exported.containsKey(key)) {
          registry.counter(metadata(metric.metricName(), metric.help()), tags); // shown as 0
          exported.put(key, 0L);
        }
      }
    }
    for (String[] address : reading.exported().values()) {
      for (AddressGauge gauge : AddressGauge.values()) {
        if (gauge.of(reading, address[0], address[1]).isPresent()
            && gauges.add(gauge.metricName() + " " + TrafficReading.key(address[0], address[1]))) {
          registry.gauge(
              metadata(gauge.metricName(), gauge.help()),
              this,
              self -> self.current.gauge(gauge, address[0], address[1]),
              tags(address[0], address[1]));
        }
      }
    }
    reading.alerts().ifPresent(this::publishAlerts);
    for (ProviderState provider : reading.providers()) {
      String scheme = provider.scheme();
      if (gauges.add(AddressGauge.PROVIDER_REACHABLE + " " + scheme)) {
        registry.gauge(
            metadata(AddressGauge.PROVIDER_REACHABLE, AddressGauge.PROVIDER_REACHABLE_HELP),
            this,
            self -> self.current.reachability(scheme),
            new Tag("provider", scheme));
      }
    }
  }

  /**
   * The alert rules' breaches: the counter adds what began since the reading before, the gauge
   * reads the newest report when scraped.
   */
  private void publishAlerts(AlertState.Report report) {
    for (Map.Entry<String, Long> begun : report.begun().entrySet()) {
      String key = AlertGauge.BEGUN.metricName() + " " + begun.getKey();
      long before = exported.getOrDefault(key, -1L);
      if (begun.getValue() > before) {
        registry
            .counter(
                metadata(AlertGauge.BEGUN.metricName(), AlertGauge.BEGUN.help()),
                new Tag("rule", begun.getKey()))
            .inc(begun.getValue() - Math.max(0, before));
        exported.put(key, begun.getValue());
      }
      String rule = begun.getKey();
      if (gauges.add(AlertGauge.ACTIVE.metricName() + " " + rule)) {
        registry.gauge(
            metadata(AlertGauge.ACTIVE.metricName(), AlertGauge.ACTIVE.help()),
            this,
            self ->
                self.current
                    .alerts()
                    .map(alerts -> alerts.activeByRule().getOrDefault(rule, 0L))
                    .orElse(0L),
            new Tag("rule", rule));
      }
    }
  }

  private static Tag[] tags(String scheme, String address) {
    return new Tag[] {new Tag("provider", scheme), new Tag("address", address)};
  }

  private static Metadata metadata(String name, String help) {
    return Metadata.builder().withName(name).withDescription(help).build();
  }
}
