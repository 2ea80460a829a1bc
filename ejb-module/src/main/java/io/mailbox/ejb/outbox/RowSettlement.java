package io.mailbox.ejb.outbox;

import io.mailbox.ejb.event.FailureText;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the relay writes when a claimed row did not go out: a failed publish backs off exponentially
 * and, after {@code maxAttempts}, fails the row for good; an invalid row fails at once as {@code
 * invalid-row}; a row the relay did not publish is given back as it was. Each write holds the
 * claim's version, so a relay that lost its claim changes nothing ({@link Outcome#LOST}).
 */
final class RowSettlement {
  private static final Logger LOG = Logger.getLogger(RowSettlement.class.getName());
  static final String INVALID_ROW = "invalid-row";

  /** What became of a row that was not published. */
  enum Outcome {
    RETRY,
    FAILED,
    LOST,
    RETURNED
  }

  private final OutboxStore store;
  private final RelaySettings settings;
  private final Clock clock;
  private final RelayListener listener;

  RowSettlement(OutboxStore store, RelaySettings settings, Clock clock, RelayListener listener) {
    this.store = store;
    this.settings = settings;
    this.clock = clock;
    this.listener = listener;
  }

  /** A row that cannot be published, ever; {@code held} is the version its writer holds. */
  Outcome invalid(OutboxRow row, long held, String reason) {
    LOG.warning(
        () -> "Outbox row " + row.id() + " is invalid (" + reason + "): failed, never published");
    return failed(row, held, row.attempts(), INVALID_ROW + ": " + reason);
  }

  /** A failed publish of a claimed row: backs off, or fails it after {@code maxAttempts}. */
  Outcome publishFailed(OutboxRow row, Exception e) {
    long held = row.claimVersion() + 1;
    listener.publishFailed(row.topic());
    int attempts = row.attempts() + 1;
    String error = FailureText.of(e);
    if (attempts >= settings.maxAttempts()) {
      LOG.log(
          Level.WARNING,
          "Outbox row {0} failed after {1} attempts: {2}",
          new Object[] {row.id(), attempts, error});
      return failed(row, held, attempts, error);
    }
    long next = clock.millis() + settings.backoffAfter(attempts).toMillis();
    return store.markRetry(row.id(), held, attempts, next, error) ? Outcome.RETRY : lost();
  }

  /**
   * Gives back a claimed row that was not published (an earlier row of its key did not go): lease
   * cleared, attempts, availability and error as they were, so any relay may take it at once.
   */
  Outcome returned(OutboxRow row) {
    long held = row.claimVersion() + 1;
    return store.markRetry(row.id(), held, row.attempts(), row.availableAt(), row.lastError())
        ? Outcome.RETURNED
        : lost();
  }

  private Outcome failed(OutboxRow row, long held, int attempts, String error) {
    if (store.markFailed(row.id(), held, attempts, error)) {
      listener.poisoned(row.topic());
      return Outcome.FAILED;
    }
    return lost();
  }

  private Outcome lost() {
    listener.overlap("claim-lost");
    return Outcome.LOST;
  }
}
