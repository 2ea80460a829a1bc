package io.mailbox.console.outbox;

import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.outbox.OutboxRow;
import io.mailbox.ejb.outbox.OutboxStatus;
import java.time.Duration;
import java.time.Instant;

/** The outbox view's words and numbers, kept apart from the components so they are unit-tested. */
final class OutboxRowText {
  static final int ERROR_CHARS = 200;

  private OutboxRowText() {}

  static String summary(OutboxOperations.OutboxSummary summary) {
    String oldest =
        summary.oldestPendingAge() == null ? "none" : ago(summary.oldestPendingAge()) + " old";
    return summary.pending()
        + " pending (oldest: "
        + oldest
        + ") · "
        + summary.failed()
        + " failed, of which "
        + summary.invalid()
        + " invalid · "
        + summary.parkedInbox()
        + " parked inbox deliveries";
  }

  static String statusLabel(OutboxStatus status) {
    return switch (status) {
      case FAILED -> "Failed (blocking their ordering key)";
      case PENDING -> "Pending";
      case SENT -> "Sent";
      default -> status.name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  static String age(OutboxRow row, Instant now) {
    return ago(Duration.between(Instant.ofEpochMilli(row.createdAt()), now));
  }

  static String error(OutboxRow row) {
    String error = row.lastError() == null ? "" : row.lastError();
    return error.length() <= ERROR_CHARS ? error : error.substring(0, ERROR_CHARS - 1) + "…";
  }

  static String released(int released, int requested, boolean retry) {
    String what = retry ? "returned to pending" : "discarded";
    return released == requested
        ? released + " row(s) " + what + "."
        : released + " of " + requested + " row(s) " + what + "; the others were no longer failed.";
  }

  static String ago(Duration age) {
    long seconds = Math.max(0, age.toSeconds());
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return seconds / 60 + " min";
    }
    if (seconds < 86_400) {
      return seconds / 3600 + " h " + (seconds % 3600) / 60 + " min";
    }
    return seconds / 86_400 + " d";
  }
}
