package io.mailbox.ejb.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.Snapshot;
import java.time.Duration;
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

  private static final ProviderState MEM = new ProviderState("mem", true, Reachability.UP);

  @Test
  void anOnlineSnapshotIsUpWithItsCountsAndEachProvidersReachability() {
    HealthCheckResponse response =
        AdapterHealthCheck.describe(
            new Snapshot(
                AddressState.ONLINE,
                Instant.EPOCH,
                List.of(BUSY),
                List.of(),
                List.of(MEM, new ProviderState("tiny", true, Reachability.UNKNOWN))));

    assertThat(response.getStatus()).as("unknown is not down").isEqualTo(Status.UP);
    assertThat(response.getData().orElseThrow())
        .containsEntry("state", "online")
        .containsEntry("addresses", 1L)
        .containsEntry("unread", 3L)
        .containsEntry("inFlight", 1L)
        .containsEntry("provider.mem", "up")
        .containsEntry("provider.tiny", "unknown")
        .containsEntry("reasons", "");
  }

  @Test
  void aProviderThatCannotListIsNamedButStaysUp() {
    HealthCheckResponse response =
        AdapterHealthCheck.describe(
            new Snapshot(
                AddressState.DEGRADED,
                Instant.EPOCH,
                List.of(),
                List.of("tiny"),
                List.of(MEM, new ProviderState("tiny", true, Reachability.UP))));

    assertThat(response.getStatus()).isEqualTo(Status.UP);
    assertThat(response.getData().orElseThrow())
        .containsEntry("state", "degraded")
        .containsEntry("reasons", "unlisted:tiny");
  }

  @Test
  void anUnreachableOrStoppedProviderIsDownAndNamed() {
    HealthCheckResponse response =
        AdapterHealthCheck.describe(
            new Snapshot(
                AddressState.OFFLINE,
                Instant.EPOCH,
                List.of(),
                List.of(),
                List.of(
                    new ProviderState("amqp", true, Reachability.DOWN),
                    new ProviderState("jdbc", false, Reachability.UNKNOWN),
                    MEM)));

    assertThat(response.getStatus()).isEqualTo(Status.DOWN);
    assertThat(response.getData().orElseThrow())
        .containsEntry("provider.amqp", "down")
        .containsEntry("reasons", "unreachable:amqp,stopped:jdbc");
  }

  @Test
  void anOfflineAddressUnderAnAnsweringProviderIsDegradedAndDown() {
    AddressStatus offline =
        new AddressStatus(
            MailAddress.parse("mem:a@b"),
            AddressState.OFFLINE,
            true,
            0,
            0,
            Instant.EPOCH,
            Map.of());

    HealthCheckResponse response =
        AdapterHealthCheck.describe(
            new Snapshot(
                AddressState.DEGRADED, Instant.EPOCH, List.of(offline), List.of(), List.of(MEM)));

    assertThat(response.getStatus()).isEqualTo(Status.DOWN);
    assertThat(response.getData().orElseThrow()).containsEntry("reasons", "addresses-offline");
  }

  @Test
  void aProbeThatHangsIsDownWithTimeoutAndAFailureGivesOnlyItsCode() {
    CachedProbe<Snapshot> hangs =
        new CachedProbe<>(
            () -> {
              throw new AssertionError("never run");
            },
            task -> {}, // accepted, never run: the probe hangs
            () -> 0L,
            Duration.ofSeconds(5),
            Duration.ofMillis(20));
    assertThat(new AdapterHealthCheck(hangs).call().getData().orElseThrow())
        .containsEntry("reasons", "timeout");

    CachedProbe<Snapshot> fails =
        new CachedProbe<>(
            () -> {
              throw new MailboxException(ErrorCode.NOT_STARTED, "secret-host:5432 refused");
            },
            Runnable::run,
            () -> 0L,
            Duration.ofSeconds(5),
            Duration.ofMillis(20));
    HealthCheckResponse failed = new AdapterHealthCheck(fails).call();
    assertThat(failed.getStatus()).isEqualTo(Status.DOWN);
    assertThat(failed.getData().orElseThrow().toString())
        .contains("adapter-unavailable:" + ErrorCode.NOT_STARTED.code())
        .doesNotContain("secret-host");
  }
}
