package io.mailbox.console.health;

import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.ejb.health.AdapterHealthCheck;
import io.mailbox.ejb.health.AdapterLivenessCheck;
import io.mailbox.ejb.health.OutboxHealthCheck;
import io.mailbox.ejb.metrics.OutboxMetrics;
import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.outbox.OutboxRelayService;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * The server's health checks, registered here and only here. The adapter and the outbox tables are
 * the server's, not a war's: when the checks were beans of the services module, every war bundling
 * it (the console and the example on Payara Micro) registered its own copy, and {@code /health}
 * listed each check twice. The console is the product's own war, deployed once per server on every
 * supported set-up.
 *
 * <p>Probes run on the server's managed executor (they call EJBs and the adapter, which need the
 * application's context), bounded and cached by the checks themselves.
 */
@ApplicationScoped
public class ServerHealthChecks {
  @Inject private MailboxConnectionFactory connections;
  @EJB private OutboxOperations operations;
  @EJB private OutboxRelayService relay;

  // Instance: MicroProfile Metrics is optional (WildFly 37 has none; no gauges then).
  @Inject private Instance<OutboxMetrics> metrics;

  @Resource private ManagedExecutorService executor;

  private AdapterHealthCheck adapterReadiness;
  private OutboxHealthCheck outboxReadiness;
  private AdapterLivenessCheck adapterLiveness;

  @PostConstruct
  void build() {
    adapterReadiness = new AdapterHealthCheck(connections, executor);
    Optional<OutboxMetrics> gauges =
        metrics.isResolvable() ? Optional.of(metrics.get()) : Optional.empty();
    outboxReadiness = new OutboxHealthCheck(operations, relay, gauges, executor);
    outboxReadiness.probedTogetherWith(adapterReadiness);
    adapterLiveness = new AdapterLivenessCheck(connections, executor);
  }

  @Produces
  @Readiness
  @ApplicationScoped
  HealthCheck adapterReadiness() {
    return adapterReadiness;
  }

  @Produces
  @Readiness
  @ApplicationScoped
  HealthCheck outboxReadiness() {
    return outboxReadiness;
  }

  @Produces
  @Liveness
  @ApplicationScoped
  HealthCheck adapterLiveness() {
    return adapterLiveness;
  }
}
