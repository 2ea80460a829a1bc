package io.mailbox.ejb.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.alerts.AlertBreach;
import io.mailbox.ejb.alerts.AlertMeasure;
import io.mailbox.ejb.alerts.AlertRules;
import io.mailbox.ejb.alerts.AlertState;
import io.mailbox.ejb.testsupport.MapConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;

class AlertsHealthCheckTest {

  @Test
  void eachBreachedRuleIsAReasonByNameNeverByAddressAndTheCheckStaysUp() {
    AlertState state = new AlertState(AlertRules.from(new MapConfig(Map.of())));
    state.observe(
        List.of(
            new AlertBreach("parked", "jdbc:orders", AlertMeasure.PARKED, 1, 0),
            new AlertBreach("parked", "jdbc:invoices", AlertMeasure.PARKED, 2, 0),
            new AlertBreach("dead-letters", "jdbc:orders.dlq", AlertMeasure.DEAD_LETTERS, 1, 0)),
        Instant.now());

    HealthCheckResponse response = new AlertsHealthCheck(state::report).call();

    assertThat(response.getStatus()).isEqualTo(Status.UP);
    assertThat(response.getData().orElseThrow())
        .containsEntry("reasons", "threshold:dead-letters,threshold:parked")
        .containsEntry("activeBreaches", 3L)
        .containsEntry("rules", 4L);
    assertThat(response.getData().orElseThrow().toString()).doesNotContain("jdbc:");
  }

  @Test
  void noBreachNoReason() {
    AlertState state = new AlertState(AlertRules.from(new MapConfig(Map.of())));

    assertThat(new AlertsHealthCheck(state::report).call().getData().orElseThrow())
        .containsEntry("reasons", "")
        .containsEntry("activeBreaches", 0L);
  }
}
