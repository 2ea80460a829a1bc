package io.mailbox.ejb.metrics;

import io.mailbox.ejb.operations.OutboxOperations.OutboxSummary;
import java.util.function.ToDoubleFunction;

/**
 * The outbox and inbox tables' gauges, server-wide (read from the tables, whichever application's
 * relay publishes), exported as Prometheus text on every server: the outbox's own MicroProfile
 * Metrics ({@link OutboxMetrics}) exist only where the server has MicroProfile Metrics.
 */
public enum OutboxGauge {
  PENDING_ROWS(
      "mailbox_outbox_pending_rows", "Outbox rows waiting to be published.", s -> s.pending()),
  FAILED_ROWS(
      "mailbox_outbox_failed_rows",
      "Outbox rows given up after their attempts (an operator releases them).",
      s -> s.failed()),
  INVALID_ROWS(
      "mailbox_outbox_invalid_rows",
      "Outbox rows that can never be published (a malformed address or envelope).",
      s -> s.invalid()),
  OLDEST_PENDING_SECONDS(
      "mailbox_outbox_oldest_pending_seconds",
      "Age of the oldest pending outbox row (0 when none).",
      s -> s.oldestPendingAge() == null ? 0 : s.oldestPendingAge().toMillis() / 1000.0),
  PARKED_INBOX_ROWS(
      "mailbox_inbox_parked_rows",
      "Consumer inbox deliveries parked (an operator releases them).",
      s -> s.parkedInbox());

  private final String metricName;
  private final String help;
  private final ToDoubleFunction<OutboxSummary> value;

  OutboxGauge(String metricName, String help, ToDoubleFunction<OutboxSummary> value) {
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

  public double of(OutboxSummary summary) {
    return value.applyAsDouble(summary);
  }
}
