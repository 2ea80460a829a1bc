package io.mailbox.ejb.inbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.ejb.event.FailureText;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An operator's release of parked deliveries (plain Java over {@link InboxTransactions}): discard
 * keeps a delivery skipped; retry re-posts its stored envelope to the address it came from. A
 * release never reports a delivery it did not make: a retry without a stored envelope or a recorded
 * source address is refused with a code and changes nothing, and a re-post the provider refuses
 * puts the marker back.
 */
public final class ParkedDeliveries {
  private static final Logger LOG = Logger.getLogger(ParkedDeliveries.class.getName());

  /** Hands one message to its provider; returns once it was accepted, throws otherwise. */
  @FunctionalInterface
  public interface Poster {
    void post(MailMessage message);
  }

  /**
   * What releasing one parked delivery did.
   *
   * @param id the marker id
   * @param released whether it was discarded, or re-posted and its marker deleted
   * @param reason why not, starting with its code where it has one; {@code null} when released
   */
  public record Outcome(String id, boolean released, String reason) {}

  private final InboxTransactions transactions;
  private final Poster poster;
  private final Clock clock;

  public ParkedDeliveries(InboxTransactions transactions, Poster poster, Clock clock) {
    this.transactions = transactions;
    this.poster = poster;
    this.clock = clock;
  }

  /** Releases one parked delivery: {@code retry} re-posts it, otherwise it is discarded. */
  public Outcome release(String id, boolean retry) {
    InboxRelease release = transactions.release(id, retry, clock.millis());
    return switch (release.result()) {
      case DISCARDED -> new Outcome(id, true, null);
      case RETRY -> repost(release.row());
      case NOT_PARKED ->
          new Outcome(id, false, "not parked (released, purged or never parked); nothing changed");
      case NO_STORED_ENVELOPE ->
          new Outcome(
              id,
              false,
              ErrorCode.INBOX_NO_STORED_ENVELOPE.code()
                  + " The envelope was too large to keep when it was parked, so there is nothing"
                  + " to re-post; nothing changed. Discard it, or have its producer send it again.");
      case NO_SOURCE_ADDRESS ->
          new Outcome(
              id,
              false,
              ErrorCode.INBOX_NO_SOURCE_ADDRESS.code()
                  + " The address this delivery came from was not recorded, so it cannot be"
                  + " re-posted; nothing changed. Discard it, or post the envelope to its address"
                  + " by hand.");
    };
  }

  // The marker was deleted (and committed) before the post: a copy arriving while it still
  // existed would be skipped as a duplicate. So a refused post must put it back.
  private Outcome repost(InboxRow row) {
    MailMessage copy =
        MailMessage.to(row.sourceAddress())
            .id(row.envelopeId())
            .header("event-topic", row.topic())
            .header("content-type", "application/vnd.mailbox.event+json")
            .body(row.envelope())
            .build();
    try {
      poster.post(copy);
      return new Outcome(row.id(), true, null);
    } catch (RuntimeException refused) {
      String why = "The re-post to " + row.sourceAddress() + " failed (" + bounded(refused) + ")";
      try {
        boolean restored =
            transactions.park(
                new InboxRow(
                    row.id(),
                    row.consumer(),
                    row.topic(),
                    row.envelopeId(),
                    InboxStatus.PARKED,
                    row.attempts(),
                    clock.millis(),
                    row.lastError(),
                    row.envelope(),
                    row.sourceAddress()));
        return new Outcome(
            row.id(),
            false,
            why
                + (restored
                    ? "; it stays parked."
                    : "; a new delivery of it was handled meanwhile, so it is not parked again."));
      } catch (RuntimeException lost) {
        LOG.log(
            Level.SEVERE,
            "Inbox delivery {0} of {1} (event {2}) was neither re-posted nor put back: {3}",
            new Object[] {row.id(), row.topic(), row.envelopeId(), bounded(lost)});
        return new Outcome(
            row.id(), false, why + "; putting it back failed too (" + bounded(lost) + ").");
      }
    }
  }

  private static String bounded(Throwable failure) {
    String text = FailureText.of(failure);
    return text.length() <= 300 ? text : text.substring(0, 300);
  }
}
