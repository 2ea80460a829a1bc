package io.mailbox.ejb.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.ejb.alerts.AlertBreach;
import io.mailbox.ejb.alerts.AlertMeasure;
import io.mailbox.ejb.alerts.AlertRules;
import io.mailbox.ejb.alerts.AlertState;
import io.mailbox.ejb.operations.OutboxOperations.OutboxSummary;
import io.mailbox.ejb.testsupport.MapConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
  private static final String ORDERS = "jdbc://shop@orders/placed";

  private static AddressTraffic counted(String address, long posted, long nanos) {
    return new AddressTraffic(address, "jdbc", posted, 1, nanos, 7, 6, 2, 1, 0, 0);
  }

  private static Snapshot snapshot(AddressStatus... statuses) {
    return new Snapshot(
        AddressState.ONLINE,
        Instant.now(),
        List.of(statuses),
        List.of(),
        List.of(
            new ProviderState("jdbc", true, Reachability.UP),
            new ProviderState("amqp", true, Reachability.DOWN)));
  }

  @Test
  void everyCounterAndGaugeIsWrittenWithItsTypeHelpAndTags() {
    AddressStatus status =
        new AddressStatus(
            MailAddress.parse(ORDERS),
            AddressState.ONLINE,
            true,
            4,
            3,
            null,
            Map.of("jdbc.overdueInFlightCount", 2L));
    TrafficReading reading =
        TrafficReading.of(
            List.of(counted(ORDERS, 10, 11_000_000)),
            Optional.of(snapshot(status)),
            TrafficReading.empty());

    String text = PrometheusText.render(reading);

    assertThat(text)
        .contains("# TYPE mailbox_posted_total counter")
        .contains("mailbox_posted_total{provider=\"jdbc\",address=\"" + ORDERS + "\"} 10\n")
        .contains("mailbox_publish_failures_total{provider=\"jdbc\",address=\"" + ORDERS + "\"} 1")
        .contains("mailbox_delivered_total{provider=\"jdbc\",address=\"" + ORDERS + "\"} 7")
        .contains("mailbox_acknowledged_total{provider=\"jdbc\",address=\"" + ORDERS + "\"} 6")
        .contains("mailbox_retried_total{provider=\"jdbc\",address=\"" + ORDERS + "\"} 2")
        .contains("mailbox_dead_lettered_total{provider=\"jdbc\",address=\"" + ORDERS + "\"} 1")
        .contains("# TYPE mailbox_unread gauge")
        .contains("mailbox_unread{provider=\"jdbc\",address=\"" + ORDERS + "\"} 4.000000")
        .contains("mailbox_in_flight{provider=\"jdbc\",address=\"" + ORDERS + "\"} 3.000000")
        .contains("mailbox_overdue{provider=\"jdbc\",address=\"" + ORDERS + "\"} 2.000000")
        .as("11 ms over 11 posts (10 and one failure)")
        .contains(
            "mailbox_publish_latency_seconds{provider=\"jdbc\",address=\""
                + ORDERS
                + "\"} 0.001000")
        .contains("mailbox_provider_reachable{provider=\"jdbc\"} 1")
        .contains("mailbox_provider_reachable{provider=\"amqp\"} 0");
    for (TrafficMetric metric : TrafficMetric.values()) {
      assertThat(text).contains("# HELP " + metric.metricName() + " ");
    }
  }

  @Test
  void theLatencyIsTheMeanOverTheIntervalNotTheWholeUptime() {
    TrafficReading first =
        TrafficReading.of(
            List.of(counted(ORDERS, 999, 1_000_000_000_000L)),
            Optional.empty(),
            TrafficReading.empty());
    TrafficReading second =
        TrafficReading.of(
            List.of(counted(ORDERS, 1_009, 1_000_000_000_000L + 20_000_000)),
            Optional.empty(),
            first);
    TrafficReading idle =
        TrafficReading.of(
            List.of(counted(ORDERS, 1_009, 1_000_000_000_000L + 20_000_000)),
            Optional.empty(),
            second);

    assertThat(AddressGauge.PUBLISH_LATENCY.of(second, "jdbc", ORDERS)).contains(0.002);
    assertThat(AddressGauge.PUBLISH_LATENCY.of(idle, "jdbc", ORDERS)).contains(0.0);
  }

  @Test
  void anAddressLeftFromBeforeARestartHasGaugesButNoCounters() {
    AddressStatus backlog =
        new AddressStatus(
            MailAddress.parse(ORDERS), AddressState.ONLINE, true, 120, 0, null, Map.of());
    String text =
        PrometheusText.render(
            TrafficReading.of(List.of(), Optional.of(snapshot(backlog)), TrafficReading.empty()));

    assertThat(text)
        .contains("mailbox_unread{provider=\"jdbc\",address=\"" + ORDERS + "\"} 120.000000")
        .doesNotContain("mailbox_posted_total{")
        .as("a provider that cannot count overdue copies gets no overdue gauge")
        .doesNotContain("mailbox_overdue{");
  }

  @Test
  void theOutboxTablesGaugesAreWrittenWhenTheirProbeAnsweredAndLeftOutWhenItDidNot() {
    TrafficReading read =
        TrafficReading.empty()
            .withOutbox(
                Optional.of(new OutboxSummary(12, 2, 1, java.time.Duration.ofMillis(90_500), 3)));
    assertThat(PrometheusText.render(read))
        .contains("# TYPE mailbox_outbox_pending_rows gauge\nmailbox_outbox_pending_rows 12.000\n")
        .contains("mailbox_outbox_failed_rows 2.000\n")
        .contains("mailbox_outbox_invalid_rows 1.000\n")
        .contains("mailbox_outbox_oldest_pending_seconds 90.500\n")
        .contains("mailbox_inbox_parked_rows 3.000\n");
    assertThat(PrometheusText.render(TrafficReading.empty().withOutbox(Optional.empty())))
        .as("a timed-out probe exports no made-up zero")
        .doesNotContain("mailbox_outbox_");
  }

  @Test
  void labelValuesAreEscapedSoAnAddressCannotForgeASample() {
    assertThat(PrometheusText.escape("a\"b\\c\nmailbox_posted_total 1"))
        .isEqualTo("a\\\"b\\\\c\\nmailbox_posted_total 1");
  }

  @Test
  void theAlertRulesActiveAndBegunBreachesAreWrittenPerRule() {
    AlertState alerts = new AlertState(AlertRules.from(new MapConfig(Map.of())));
    alerts.observe(
        List.of(new AlertBreach("parked", ORDERS, AlertMeasure.PARKED, 2, 0)), Instant.now());
    TrafficReading reading =
        TrafficReading.of(List.of(), Optional.empty(), TrafficReading.empty())
            .withAlerts(alerts.report());

    assertThat(PrometheusText.render(reading))
        .contains("# TYPE mailbox_alerts_active gauge")
        .contains("mailbox_alerts_active{rule=\"parked\"} 1\n")
        .contains("mailbox_alerts_active{rule=\"dead-letters\"} 0\n")
        .contains("# TYPE mailbox_alert_breaches_total counter")
        .contains("mailbox_alert_breaches_total{rule=\"parked\"} 1\n")
        .contains("mailbox_alert_breaches_total{rule=\"overdue-leases\"} 0\n");
  }
}
