package io.mailbox.ejb.health;

import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;

/**
 * Liveness: the resource adapter still hands out a connection within the probe's bound. It touches
 * no database and no broker (their outages are readiness's business: restarting the server would
 * not bring them back); it fails when the adapter itself is gone or wedged, which a restart cures.
 *
 * <p>Not a CDI bean by itself: the console war registers it once per server.
 */
public final class AdapterLivenessCheck implements HealthCheck {
  static final String NAME = "mailbox-adapter-live";

  private final CachedProbe<Boolean> probe;

  public AdapterLivenessCheck(MailboxConnectionFactory connections, Executor executor) {
    this(
        new CachedProbe<>(
            () -> {
              try (MailboxConnection connection = connections.getConnection()) {
                return Boolean.TRUE;
              }
            },
            executor));
  }

  AdapterLivenessCheck(CachedProbe<Boolean> probe) {
    this.probe = probe;
  }

  /**
   * Starts a probe now, without waiting for it: called once the application started, so that the
   * first poll does not pay for a cold start (the first read of a fresh server took over 2 s).
   */
  public void warmUp() {
    probe.refresh();
  }

  @Override
  public HealthCheckResponse call() {
    CachedProbe.Answer<Boolean> answer = probe.answer();
    if (answer.timedOut()) {
      return new HealthCheckResponse(NAME, Status.DOWN, Optional.of(Map.of("reasons", "timeout")));
    }
    if (answer.failure() != null) {
      return new HealthCheckResponse(
          NAME,
          Status.DOWN,
          Optional.of(Map.of("reasons", AdapterHealthCheck.reasonFor(answer.failure()))));
    }
    return new HealthCheckResponse(NAME, Status.UP, Optional.empty());
  }
}
