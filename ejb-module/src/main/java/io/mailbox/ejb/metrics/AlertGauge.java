package io.mailbox.ejb.metrics;

import io.mailbox.ejb.alerts.AlertState;
import java.util.Map;

/**
 * The alert rules' metrics, tagged {@code rule} (rule names come from the settings, so the tags are
 * bounded): how many breaches are active now, and how many began since the application started.
 */
enum AlertGauge {
  ACTIVE("mailbox_alerts_active", "Breaches of the alert rule active now", "gauge"),
  BEGUN("mailbox_alert_breaches_total", "Breaches of the alert rule begun since start", "counter");

  private final String metricName;
  private final String help;
  private final String type;

  AlertGauge(String metricName, String help, String type) {
    this.metricName = metricName;
    this.help = help;
    this.type = type;
  }

  String metricName() {
    return metricName;
  }

  String help() {
    return help;
  }

  String type() {
    return type;
  }

  /** By rule name, every rule listed. */
  Map<String, Long> of(AlertState.Report report) {
    return this == ACTIVE ? report.activeByRule() : report.begun();
  }
}
