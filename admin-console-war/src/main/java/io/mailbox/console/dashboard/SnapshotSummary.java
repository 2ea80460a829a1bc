package io.mailbox.console.dashboard;

import io.mailbox.connector.api.Snapshot;

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
    if (!snapshot.unsupportedProviders().isEmpty()) {
      text.append(" · cannot list: ").append(String.join(", ", snapshot.unsupportedProviders()));
    }
    return text.toString();
  }
}
