package io.mailbox.console.health;

import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.ejb.health.AdapterHealthCheck;
import io.mailbox.ejb.health.AdapterLivenessCheck;
import io.mailbox.ejb.health.OutboxHealthCheck;
import io.mailbox.ejb.metrics.OutboxMetrics;
import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.outbox.OutboxRelayService;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The server's health checks, built here and registered by this war only ({@link AdapterReadiness},
 * {@link OutboxReadiness}, {@link AdapterLiveness}). The adapter and the outbox tables are the
 * server's, not a war's: when the checks were beans of the services module, every war bundling it
 * (the console and the example on Payara Micro) registered its own copy, and {@code /health} listed
 * each check twice. The console is the product's own war, deployed once per server on every
 * supported set-up.
 *
 * <p>Probes run on threads of the checks' own made by the server's managed thread factory (they
 * call EJBs and the adapter, which need the application's context), bounded and cached by the
 * checks themselves.
 */
@ApplicationScoped
public class ServerHealthChecks {
  private static final int PROBES = 3;

  @Inject private MailboxConnectionFactory connections;
  @EJB private OutboxOperations operations;
  @EJB private OutboxRelayService relay;

  // Instance: MicroProfile Metrics is optional (WildFly 37 has none; no gauges then).
  @Inject private Instance<OutboxMetrics> metrics;

  // Threads of the checks' own, from the server's factory (they carry this war's context for the
  // EJB and adapter calls), so that application work queued on the server's shared executor cannot
  // delay a probe past its bound.
  @Resource private ManagedThreadFactory threadFactory;

  private ThreadPoolExecutor executor;

  private AdapterHealthCheck adapterReadiness;
  private OutboxHealthCheck outboxReadiness;
  private AdapterLivenessCheck adapterLiveness;

  @PostConstruct
  void build() {
    // One thread per check at most: a check never starts a second probe while one still runs.
    executor =
        new ThreadPoolExecutor(
            PROBES, PROBES, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threadFactory);
    executor.allowCoreThreadTimeOut(true);
    adapterReadiness = new AdapterHealthCheck(connections, executor);
    Optional<OutboxMetrics> gauges =
        metrics.isResolvable() ? Optional.of(metrics.get()) : Optional.empty();
    outboxReadiness = new OutboxHealthCheck(operations, relay, gauges, executor);
    outboxReadiness.probedTogetherWith(adapterReadiness);
    adapterLiveness = new AdapterLivenessCheck(connections, executor);
  }

  /** Creates the checks with the application and probes once, so the first poll finds it warm. */
  void warmUp(@Observes @Initialized(ApplicationScoped.class) Object started) {
    adapterReadiness.warmUp();
    outboxReadiness.warmUp();
    adapterLiveness.warmUp();
  }

  @PreDestroy
  void stop() {
    executor.shutdownNow();
  }

  public AdapterHealthCheck adapterReadiness() {
    return adapterReadiness;
  }

  public OutboxHealthCheck outboxReadiness() {
    return outboxReadiness;
  }

  AdapterLivenessCheck adapterLiveness() {
    return adapterLiveness;
  }
}
