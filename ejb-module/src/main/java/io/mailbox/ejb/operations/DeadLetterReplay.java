package io.mailbox.ejb.operations;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.SystemHeaders;

/**
 * How a dead letter goes back to the address it was given up at. The copy keeps the sender's id,
 * body, meta and headers (not the kernel's {@code mbx-} bookkeeping, which the send boundary sets
 * afresh) and gains two markers that survive the send boundary: {@value #REPLAY_COUNT} (how often
 * it was replayed) and {@value #REPLAYED_FROM} (from which dead-letter address). A replayed message
 * that dies again therefore reaches the dead letters carrying its count — the console shows it —
 * instead of looping unseen.
 */
public final class DeadLetterReplay {
  /** How many times this message was replayed from a dead-letter address. */
  public static final String REPLAY_COUNT = "mailbox-replay-count";

  /** The dead-letter address of the last replay. */
  public static final String REPLAYED_FROM = "mailbox-replayed-from";

  private DeadLetterReplay() {}

  /** The copy to post for a dead-letter record found at {@code deadLetterAddress}. */
  public static MailMessage replayCopy(MailMessage record, String deadLetterAddress) {
    String original =
        record
            .header(SystemHeaders.DEAD_LETTER_TOPIC)
            .orElseThrow(
                () ->
                    new MailboxException(
                        ErrorCode.INVALID_MESSAGE,
                        "The record "
                            + record.id()
                            + " names no address it was given up at ("
                            + SystemHeaders.DEAD_LETTER_TOPIC
                            + "); it cannot be replayed."));
    MailMessage.Builder copy = MailMessage.to(original).id(record.id()).body(record.body());
    record.from().ifPresent(copy::from);
    record.meta().forEach(copy::meta);
    record
        .headers()
        .forEach(
            (name, value) -> {
              if (!SystemHeaders.isSystemHeader(name)) {
                copy.header(name, value);
              }
            });
    return copy.header(REPLAY_COUNT, Integer.toString(replayCount(record) + 1))
        .header(REPLAYED_FROM, deadLetterAddress)
        .build();
  }

  /** How often the record's message was replayed before it died this time. */
  public static int replayCount(MailMessage record) {
    try {
      return Integer.parseInt(record.header(REPLAY_COUNT).orElse("0").strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
