package io.mailbox.ejb.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.Snapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;

class AdapterHealthCheckTest {
  private static final AddressStatus BUSY =
      new AddressStatus(
          MailAddress.parse("mem:a@b"), AddressState.ONLINE, true, 3, 1, Instant.EPOCH, Map.of());

  @Test
  void anOnlineSnapshotIsUpWithItsCounts() {
    HealthCheckResponse response =
        AdapterHealthCheck.describe(
            new Snapshot(AddressState.ONLINE, Instant.EPOCH, List.of(BUSY), List.of()));

    assertThat(response.getStatus()).isEqualTo(Status.UP);
    assertThat(response.getData().orElseThrow())
        .containsEntry("state", "online")
        .containsEntry("addresses", 1L)
        .containsEntry("unread", 3L)
        .containsEntry("inFlight", 1L)
        .doesNotContainKey("unsupportedProviders");
  }

  @Test
  void aDegradedSnapshotIsStillUpAndNamesTheProvidersItCannotList() {
    HealthCheckResponse response =
        AdapterHealthCheck.describe(
            new Snapshot(AddressState.DEGRADED, Instant.EPOCH, List.of(), List.of("amqp")));

    assertThat(response.getStatus()).isEqualTo(Status.UP);
    assertThat(response.getData().orElseThrow())
        .containsEntry("state", "degraded")
        .containsEntry("unsupportedProviders", "amqp");
  }

  @Test
  void anOfflineSnapshotIsDown() {
    HealthCheckResponse response =
        AdapterHealthCheck.describe(
            new Snapshot(AddressState.OFFLINE, Instant.EPOCH, List.of(), List.of()));

    assertThat(response.getStatus()).isEqualTo(Status.DOWN);
  }
}
