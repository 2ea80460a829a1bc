package io.mailbox.ejb.health;

import io.mailbox.ejb.metrics.OutboxMetrics;
import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.operations.OutboxOperations.OutboxSummary;
import io.mailbox.ejb.outbox.OutboxRelayService;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Readiness;

/**
 * The outbox and inbox: down when the tables cannot be read; otherwise up, with reasons an operator
 * should look at (an old pending row, failed rows, parked inbox deliveries). Counts and ages only:
 * never a topic, key or error text.
 */
@Readiness
@ApplicationScoped
public class OutboxHealthCheck implements HealthCheck {
  static final String NAME = "mailbox-outbox";
  static final Duration OLD_PENDING = Duration.ofMinutes(1);

  static final long RECENT_MILLIS = 300_000;

  @EJB private OutboxOperations operations;
  @EJB private OutboxRelayService relay;

  // Instance: MicroProfile Metrics is optional (WildFly 37 has none; no gauges then).
  @Inject private Instance<OutboxMetrics> metrics;

  @Override
  public HealthCheckResponse call() {
    try {
      OutboxSummary summary = operations.summary();
      if (metrics.isResolvable()) {
        metrics
            .get()
            .observed(
                summary.pending(),
                summary.oldestPendingAge() == null ? 0 : summary.oldestPendingAge().toMillis());
      }
      return describe(
          summary, relay.storeFailedWithin(RECENT_MILLIS), relay.overlappedWithin(RECENT_MILLIS));
    } catch (RuntimeException e) {
      return new HealthCheckResponse(
          NAME, Status.DOWN, Optional.of(Map.of("reasons", "store-unavailable")));
    }
  }

  static HealthCheckResponse describe(OutboxSummary summary) {
    return describe(summary, false, false);
  }

  /**
   * @param storeWriteFailing a local sweep could not use the table in the last five minutes
   * @param relayOverlap a local sweep met another relay on a row in the last five minutes
   */
  static HealthCheckResponse describe(
      OutboxSummary summary, boolean storeWriteFailing, boolean relayOverlap) {
    List<String> reasons = new ArrayList<>();
    if (summary.oldestPendingAge() != null
        && summary.oldestPendingAge().compareTo(OLD_PENDING) > 0) {
      reasons.add("oldest-pending-age");
    }
    if (summary.failed() > 0) {
      reasons.add("failed-rows");
    }
    if (summary.parkedInbox() > 0) {
      reasons.add("parked-inbox-rows");
    }
    if (storeWriteFailing) {
      reasons.add("store-write-failing");
    }
    if (relayOverlap) {
      reasons.add("relay-overlap");
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("pending", summary.pending());
    data.put("failed", summary.failed());
    data.put("invalid", summary.invalid());
    data.put(
        "oldestPendingMs",
        summary.oldestPendingAge() == null ? 0L : summary.oldestPendingAge().toMillis());
    data.put("parkedInbox", summary.parkedInbox());
    data.put("reasons", String.join(",", reasons));
    return new HealthCheckResponse(NAME, Status.UP, Optional.of(data));
  }
}
