package io.mailbox.console.health;

import io.mailbox.console.metrics.ServerMetrics;
import io.mailbox.ejb.health.AlertsHealthCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: the alert rules' active breaches (mailbox-alerts), as the server's metrics last read
 * them (every 5 s). A class of its own, like {@link OutboxReadiness}.
 */
@Readiness
@ApplicationScoped
public class AlertsReadiness implements HealthCheck {
  @Inject private ServerMetrics metrics;

  @Override
  public HealthCheckResponse call() {
    return new AlertsHealthCheck(metrics::alerts).call();
  }
}
