package io.mailbox.ejb.health;

import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.operations.OutboxOperations.OutboxSummary;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
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

  @EJB private OutboxOperations operations;

  @Override
  public HealthCheckResponse call() {
    try {
      return describe(operations.summary());
    } catch (RuntimeException e) {
      return new HealthCheckResponse(
          NAME, Status.DOWN, Optional.of(Map.of("reasons", "store-unavailable")));
    }
  }

  static HealthCheckResponse describe(OutboxSummary summary) {
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
