package io.mailbox.console.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: the outbox and inbox tables (mailbox-outbox). A class of its own with the qualifier on
 * the class, because WildFly's health subsystem did not pick up producer methods in the EAR's
 * console war (measured).
 */
@Readiness
@ApplicationScoped
public class OutboxReadiness implements HealthCheck {
  @Inject private ServerHealthChecks checks;

  @Override
  public HealthCheckResponse call() {
    return checks.outboxReadiness().call();
  }
}
