package io.mailbox.console.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.Snapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AddressRowTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  private static AddressStatus status(Instant lastActivity, Map<String, Object> extensions) {
    return new AddressStatus(
        MailAddress.parse("mem:billing@shop/orders"),
        AddressState.ONLINE,
        true,
        4,
        2,
        lastActivity,
        extensions);
  }

  @Test
  void aRowCarriesTheStatusValuesAndTheProvidersSubscriberCount() {
    AddressRow row = AddressRow.of(status(NOW, Map.of("mem.subscriberCount", 3)));

    assertThat(row.address()).isEqualTo("mem://billing@shop/orders");
    assertThat(row.provider()).isEqualTo("mem");
    assertThat(row.state()).isEqualTo("online");
    assertThat(row.unread()).isEqualTo(4);
    assertThat(row.inFlight()).isEqualTo(2);
    assertThat(row.subscribersText()).isEqualTo("3");
  }

  @Test
  void aProviderThatReportsNoSubscriberCountShowsADash() {
    assertThat(AddressRow.of(status(NOW, Map.of())).subscribersText()).isEqualTo("–");
  }

  @Test
  void theOldestUnreadWaitReadsAsADurationOrADashWhenNotMeasured() {
    assertThat(AddressRow.of(status(NOW, Map.of())).oldestUnreadText()).isEqualTo("–");
    assertThat(AddressRow.of(status(NOW, Map.of("mem.oldestUnreadMs", 0L))).oldestUnreadText())
        .isEqualTo("0 s");
    assertThat(AddressRow.of(status(NOW, Map.of("mem.oldestUnreadMs", 8_900L))).oldestUnreadText())
        .isEqualTo("8 s");
    assertThat(
            AddressRow.of(status(NOW, Map.of("mem.oldestUnreadMs", 330_000L))).oldestUnreadText())
        .isEqualTo("5 min");
  }

  @Test
  void lastActivityReadsAsAnAge() {
    assertThat(AddressRow.of(status(null, Map.of())).lastActivityAgo(NOW)).isEqualTo("never");
    assertThat(AddressRow.of(status(NOW, Map.of())).lastActivityAgo(NOW)).isEqualTo("just now");
    assertThat(AddressRow.of(status(NOW.minusSeconds(42), Map.of())).lastActivityAgo(NOW))
        .isEqualTo("42 s ago");
    assertThat(AddressRow.of(status(NOW.minusSeconds(300), Map.of())).lastActivityAgo(NOW))
        .isEqualTo("5 min ago");
    assertThat(AddressRow.of(status(NOW.minusSeconds(3 * 3600), Map.of())).lastActivityAgo(NOW))
        .isEqualTo("3 h ago");
    assertThat(AddressRow.of(status(NOW.minusSeconds(2 * 86400), Map.of())).lastActivityAgo(NOW))
        .isEqualTo("2 d ago");
  }

  @Test
  void theSummaryCountsAndNamesProvidersThatCannotList() {
    Snapshot snapshot =
        new Snapshot(
            AddressState.DEGRADED,
            NOW,
            List.of(status(NOW, Map.of()), status(NOW, Map.of())),
            List.of("amqp"),
            List.of(
                new ProviderState("amqp", true, Reachability.UP),
                new ProviderState("mem", true, Reachability.UP)));

    assertThat(SnapshotSummary.describe(snapshot))
        .isEqualTo("2 addresses · degraded · 8 unread · 4 in flight · cannot list: amqp");
  }

  @Test
  void theSummaryNamesProvidersStoppedOrOutOfReach() {
    Snapshot snapshot =
        new Snapshot(
            AddressState.OFFLINE,
            NOW,
            List.of(),
            List.of(),
            List.of(
                new ProviderState("amqp", true, Reachability.DOWN),
                new ProviderState("jdbc", false, Reachability.UNKNOWN),
                new ProviderState("mem", true, Reachability.UP)));

    assertThat(SnapshotSummary.describe(snapshot))
        .isEqualTo(
            "0 addresses · offline · 0 unread · 0 in flight · stopped: jdbc · unreachable: amqp");
  }
}
