package io.mailbox.console.dashboard;

import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.Snapshot;
import java.util.List;

/** The one-line headline over the dashboard grid. */
final class SnapshotSummary {
  private SnapshotSummary() {}

  static String describe(Snapshot snapshot) {
    StringBuilder text =
        new StringBuilder()
            .append(snapshot.addressCount())
            .append(snapshot.addressCount() == 1 ? " address" : " addresses")
            .append(" · ")
            .append(snapshot.state().label())
            .append(" · ")
            .append(snapshot.unreadCount())
            .append(" unread · ")
            .append(snapshot.inFlightCount())
            .append(" in flight");
    List<String> stopped =
        snapshot.providers().stream().filter(p -> !p.started()).map(ProviderState::scheme).toList();
    if (!stopped.isEmpty()) {
      text.append(" · stopped: ").append(String.join(", ", stopped));
    }
    List<String> unreachable =
        snapshot.providers().stream()
            .filter(p -> p.reachability() == Reachability.DOWN)
            .map(ProviderState::scheme)
            .toList();
    if (!unreachable.isEmpty()) {
      text.append(" · unreachable: ").append(String.join(", ", unreachable));
    }
    if (!snapshot.unsupportedProviders().isEmpty()) {
      text.append(" · cannot list: ").append(String.join(", ", snapshot.unsupportedProviders()));
    }
    return text.toString();
  }
}
