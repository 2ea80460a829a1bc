package io.mailbox.console.metrics;

import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.console.health.ServerHealthChecks;
import io.mailbox.ejb.alerts.AlertRules;
import io.mailbox.ejb.alerts.AlertState;
import io.mailbox.ejb.metrics.MicroProfileTraffic;
import io.mailbox.ejb.metrics.TrafficReading;
import io.mailbox.ejb.operations.MailboxOperations;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The server's per-address metrics, read every {@link #INTERVAL} whether anyone polls or not: the
 * kernel's counters (from memory) and the gauges of the snapshot the readiness check keeps (one
 * store read serves both). Registered once per server, by the console war, like the health checks.
 * Exported on MicroProfile Metrics where the server has it ({@code /metrics} on Payara) and as
 * Prometheus text at {@code /api/metrics} on every server. Each reading's snapshot is checked
 * against the alert rules ({@link #alerts()}).
 */
@ApplicationScoped
public class ServerMetrics {
  static final Duration INTERVAL = Duration.ofSeconds(5);
  private static final Logger LOG = Logger.getLogger(ServerMetrics.class.getName());

  @Inject private MailboxConnectionFactory connections;
  @Inject private ServerHealthChecks checks;

  // Instance: MicroProfile Metrics is optional (WildFly 37 has none; its class cannot load there).
  @Inject private Instance<MicroProfileTraffic> microProfile;

  @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
  private ManagedScheduledExecutorService scheduler;

  private volatile TrafficReading reading = TrafficReading.empty();
  private final RateHistory rates = new RateHistory();

  // Read at start: a wrong rule (mailbox.alerts.*) fails the console's deployment with the key's
  // name (MBX-1008) instead of leaving the alerts silently off.
  private final AlertState alerts = new AlertState(AlertRules.from(ConfigProvider.getConfig()));
  private ScheduledFuture<?> refreshing;

  /** Starts reading with the application: live counters without a scrape or a health poll. */
  void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
    refreshing =
        scheduler.scheduleWithFixedDelay(
            this::refreshQuietly, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  @PreDestroy
  void stop() {
    if (refreshing != null) {
      refreshing.cancel(false);
    }
  }

  /** The newest reading; read now when the last is older than two intervals (a stalled timer). */
  public TrafficReading current() {
    TrafficReading last = reading;
    return last.age().compareTo(INTERVAL.multipliedBy(2)) > 0 ? refresh() : last;
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "Could not read the adapter's metrics (next try in 5 s)", e);
    }
  }

  private synchronized TrafficReading refresh() {
    List<AddressTraffic> traffic;
    Optional<Snapshot> fresh;
    try (MailboxConnection connection = connections.getConnection()) {
      traffic = connection.traffic();
      // The outbox gauges (pending rows, oldest pending) are written by the outbox check's probe:
      // started here too, they are live as well, not as old as the last health poll.
      checks.outboxReadiness().warmUp();
      fresh = checks.adapterReadiness().snapshot();
      // The alert rules see every snapshot the readiness probe takes (one store read serves both).
      fresh.ifPresent(
          taken ->
              alerts.observe(
                  alerts
                      .rules()
                      .breaches(taken, MailboxOperations.deadLetterAddresses(connection, taken)),
                  taken.takenAt()));
    }
    rates.record(traffic, java.time.Instant.now());
    TrafficReading previous = reading;
    TrafficReading next =
        TrafficReading.of(traffic, fresh.or(previous::snapshot), previous)
            .withOutbox(checks.outboxReadiness().summary().or(previous::outbox))
            .withAlerts(alerts.report());
    reading = next;
    if (microProfile.isResolvable()) {
      microProfile.get().publish(next);
    }
    return next;
  }

  /** Posted and delivered per second of one address over the last ten minutes, oldest first. */
  public List<RateHistory.Point> rates(String address) {
    return rates.of(io.mailbox.connector.api.MailAddress.parse(address).toString());
  }

  /** The alert rules' newest report (no breaches before the first reading). */
  public AlertState.Report alerts() {
    return alerts.report();
  }
}
