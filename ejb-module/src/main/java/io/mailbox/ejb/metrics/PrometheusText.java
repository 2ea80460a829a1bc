package io.mailbox.ejb.metrics;

import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.ProviderState;
import java.util.Locale;
import java.util.Optional;

/**
 * A {@link TrafficReading} in the Prometheus text format (version 0.0.4), for the admin API's
 * {@code /api/metrics}: the export that works on every server, WildFly 37 included, which ships no
 * MicroProfile Metrics. The same names and tags as on MicroProfile Metrics ({@link TrafficMetric},
 * {@link AddressGauge}).
 */
public final class PrometheusText {
  /** The content type scrapers expect. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private PrometheusText() {}

  public static String render(TrafficReading reading) {
    StringBuilder text = new StringBuilder();
    for (TrafficMetric metric : TrafficMetric.values()) {
      header(text, metric.metricName(), metric.help(), "counter");
      for (AddressTraffic counted : reading.traffic()) {
        sample(text, metric.metricName(), counted.scheme(), counted.address(), metric.of(counted));
      }
    }
    java.util.Collection<String[]> addresses = reading.exported().values();
    for (AddressGauge gauge : AddressGauge.values()) {
      header(text, gauge.metricName(), gauge.help(), "gauge");
      for (String[] exported : addresses) {
        Optional<Double> value = gauge.of(reading, exported[0], exported[1]);
        value.ifPresent(v -> sample(text, gauge.metricName(), exported[0], exported[1], v));
      }
    }
    header(text, AddressGauge.PROVIDER_REACHABLE, AddressGauge.PROVIDER_REACHABLE_HELP, "gauge");
    for (ProviderState provider : reading.providers()) {
      text.append(AddressGauge.PROVIDER_REACHABLE)
          .append("{provider=\"")
          .append(escape(provider.scheme()))
          .append("\"} ")
          .append(TrafficReading.reachability(provider))
          .append('\n');
    }
    reading
        .outbox()
        .ifPresent(
            summary -> {
              for (OutboxGauge gauge : OutboxGauge.values()) {
                header(text, gauge.metricName(), gauge.help(), "gauge");
                text.append(gauge.metricName())
                    .append(' ')
                    .append(String.format(Locale.ROOT, "%.3f", gauge.of(summary)))
                    .append('\n');
              }
            });
    reading
        .alerts()
        .ifPresent(
            report -> {
              for (AlertGauge gauge : AlertGauge.values()) {
                header(text, gauge.metricName(), gauge.help(), gauge.type());
                gauge
                    .of(report)
                    .forEach(
                        (rule, value) ->
                            text.append(gauge.metricName())
                                .append("{rule=\"")
                                .append(escape(rule))
                                .append("\"} ")
                                .append(value)
                                .append('\n'));
              }
            });
    return text.toString();
  }

  private static void header(StringBuilder text, String name, String help, String type) {
    text.append("# HELP ").append(name).append(' ').append(help).append('\n');
    text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(
      StringBuilder text, String name, String scheme, String address, Number value) {
    text.append(name)
        .append("{provider=\"")
        .append(escape(scheme))
        .append("\",address=\"")
        .append(escape(address))
        .append("\"} ")
        .append(
            value instanceof Double d ? String.format(Locale.ROOT, "%.6f", d) : value.toString())
        .append('\n');
  }

  /** A label value as the format wants it: backslash, double quote and line feed escaped. */
  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
