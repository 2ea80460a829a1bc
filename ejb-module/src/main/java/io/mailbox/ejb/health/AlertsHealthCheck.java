package io.mailbox.ejb.health;

import io.mailbox.ejb.alerts.AlertState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;

/**
 * The alert rules in readiness ({@code mailbox-alerts}): a reason {@code threshold:<rule>} per rule
 * with an active breach, and the count. Always up: a backlog or a parked record is for an operator
 * to look at, and taking the instance out of its load balancer would only make it worse. Rule names
 * only, never an address: the check's output is public.
 */
public final class AlertsHealthCheck implements HealthCheck {
  static final String NAME = "mailbox-alerts";

  private final Supplier<AlertState.Report> report;

  public AlertsHealthCheck(Supplier<AlertState.Report> report) {
    this.report = report;
  }

  @Override
  public HealthCheckResponse call() {
    return describe(report.get());
  }

  static HealthCheckResponse describe(AlertState.Report report) {
    TreeSet<String> breached = new TreeSet<>();
    report.active().forEach(active -> breached.add("threshold:" + active.breach().rule()));
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("rules", (long) report.rules().size());
    data.put("activeBreaches", (long) report.active().size());
    data.put("reasons", String.join(",", breached));
    return new HealthCheckResponse(NAME, Status.UP, Optional.of(data));
  }
}
