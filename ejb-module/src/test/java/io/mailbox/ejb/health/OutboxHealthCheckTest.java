package io.mailbox.ejb.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.operations.OutboxOperations.OutboxSummary;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;

class OutboxHealthCheckTest {

  @Test
  void aQuietOutboxIsUpWithoutReasons() {
    HealthCheckResponse response =
        OutboxHealthCheck.describe(new OutboxSummary(3, 0, 0, Duration.ofSeconds(2), 0));

    assertThat(response.getStatus()).isEqualTo(Status.UP);
    assertThat(response.getData().orElseThrow())
        .containsEntry("reasons", "")
        .containsEntry("pending", 3L);
  }

  @Test
  void stuckWorkIsNamedInTheReasonsWhileStayingUp() {
    HealthCheckResponse response =
        OutboxHealthCheck.describe(new OutboxSummary(3, 2, 1, Duration.ofMinutes(5), 4));

    assertThat(response.getStatus()).isEqualTo(Status.UP);
    assertThat(response.getData().orElseThrow())
        .containsEntry("reasons", "oldest-pending-age,failed-rows,parked-inbox-rows")
        .containsEntry("oldestPendingMs", 300_000L)
        .containsEntry("parkedInbox", 4L);
  }

  @Test
  void theRelaysConcernsFollowTheTablesReasons() {
    HealthCheckResponse response =
        OutboxHealthCheck.describe(
            new OutboxSummary(0, 1, 0, null, 0),
            List.of("store-write-failing", "relay-overlap", "isolation-locks-inserts"));

    assertThat(response.getStatus()).isEqualTo(Status.UP);
    assertThat(response.getData().orElseThrow())
        .containsEntry(
            "reasons", "failed-rows,store-write-failing,relay-overlap,isolation-locks-inserts");
  }
}
