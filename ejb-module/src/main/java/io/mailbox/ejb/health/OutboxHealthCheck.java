package io.mailbox.ejb.health;

import io.mailbox.ejb.metrics.OutboxMetrics;
import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.operations.OutboxOperations.OutboxSummary;
import io.mailbox.ejb.outbox.OutboxRelayService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;

/**
 * The outbox and inbox: down when the tables cannot be read or do not answer within the probe's
 * bound ({@link CachedProbe}: a lock held on the table answers "timeout", not a hung request);
 * otherwise up, with reasons an operator should look at (an old pending row, failed rows, parked
 * inbox deliveries). Counts and ages only: never a topic, key or error text.
 *
 * <p>Not a CDI bean by itself: the console war registers it once per server ({@code
 * ServerHealthChecks}), where every war bundling this module would have added its own copy.
 */
public final class OutboxHealthCheck implements HealthCheck {
  static final String NAME = "mailbox-outbox";
  static final Duration OLD_PENDING = Duration.ofMinutes(1);

  static final long RECENT_MILLIS = 300_000;

  private final CachedProbe<OutboxSummary> probe;
  private final OutboxRelayService relay;

  /**
   * @param metrics the outbox gauges, refreshed by each probe; empty where the server has no
   *     MicroProfile Metrics (WildFly 37)
   */
  public OutboxHealthCheck(
      OutboxOperations operations,
      OutboxRelayService relay,
      Optional<OutboxMetrics> metrics,
      Executor executor) {
    this(
        new CachedProbe<>(
            () -> {
              OutboxSummary summary = operations.summary();
              metrics.ifPresent(
                  gauges ->
                      gauges.observed(
                          summary.pending(),
                          summary.oldestPendingAge() == null
                              ? 0
                              : summary.oldestPendingAge().toMillis()));
              return summary;
            },
            executor),
        relay);
  }

  OutboxHealthCheck(CachedProbe<OutboxSummary> probe, OutboxRelayService relay) {
    this.probe = probe;
    this.relay = relay;
  }

  /**
   * Probes this check and {@code adapter} side by side: MicroProfile Health calls the checks one
   * after another, so with a hung database {@code /health/ready} would otherwise wait one bound per
   * check (measured: 4.0 s for two).
   */
  public void probedTogetherWith(AdapterHealthCheck adapter) {
    CachedProbe.together(probe, adapter.probe());
  }

  /**
   * Starts a probe now, without waiting for it: called once the application started, so that the
   * first poll does not pay for a cold start (the first read of a fresh server took over 2 s).
   */
  public void warmUp() {
    probe.refresh();
  }

  /**
   * The counts of the last probe, which the metrics export too (no read of their own). Empty when
   * the probe timed out or failed.
   */
  public Optional<OutboxSummary> summary() {
    CachedProbe.Answer<OutboxSummary> answer = probe.answer();
    return answer.timedOut() || answer.failure() != null
        ? Optional.empty()
        : Optional.ofNullable(answer.value());
  }

  @Override
  public HealthCheckResponse call() {
    CachedProbe.Answer<OutboxSummary> answer = probe.answer();
    if (answer.timedOut()) {
      return new HealthCheckResponse(
          NAME,
          Status.DOWN,
          Optional.of(Map.of("reasons", "timeout", "boundMs", CachedProbe.BOUND.toMillis())));
    }
    if (answer.failure() != null) {
      return new HealthCheckResponse(
          NAME, Status.DOWN, Optional.of(Map.of("reasons", "store-unavailable")));
    }
    return describe(answer.value(), relay.concerns(RECENT_MILLIS));
  }

  static HealthCheckResponse describe(OutboxSummary summary) {
    return describe(summary, List.of());
  }

  /**
   * @param relayConcerns the local relay's reasons of the last five minutes ({@link
   *     OutboxRelayService#concerns})
   */
  static HealthCheckResponse describe(OutboxSummary summary, List<String> relayConcerns) {
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
    reasons.addAll(relayConcerns);
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
