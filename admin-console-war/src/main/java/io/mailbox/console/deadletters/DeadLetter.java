package io.mailbox.console.deadletters;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.console.layout.ConsoleText;
import io.mailbox.ejb.operations.DeadLetterReplay;
import io.mailbox.ejb.operations.MailboxOperations;
import java.util.List;

/** One dead-letter record as the view shows it. */
public record DeadLetter(
    String key,
    String messageId,
    String reason,
    String source,
    String error,
    int replays,
    String details) {
  /** The reasons the kernel and the providers give (the filter offers these). */
  static final List<String> REASONS =
      List.of("fatal", "consumer-nack", "max-deliveries", "ttl", "retries-exhausted");

  static DeadLetter of(MailMessage record) {
    return new DeadLetter(
        record.sendId().orElse(""),
        record.id(),
        record.header(SystemHeaders.DEAD_LETTER_REASON).orElse(""),
        record.header(SystemHeaders.DEAD_LETTER_TOPIC).orElse(""),
        record.header(SystemHeaders.DEAD_LETTER_ERROR).orElse(""),
        DeadLetterReplay.replayCount(record),
        ConsoleText.details(record));
  }

  /** What a replay did, in one line for a notification. */
  public static String replayed(MailboxOperations.ReplayResult result) {
    return result.replayed()
        + " of "
        + result.requested()
        + " replayed"
        + (result.notRemoved() > 0
            ? ", "
                + result.notRemoved()
                + " posted back but still here (in flight or taken meanwhile: do not replay again)"
            : "")
        + (result.missing() > 0 ? ", " + result.missing() + " no longer there" : "")
        + (result.failed() > 0 ? ", " + result.failed() + " failed (still dead letters)" : "")
        + ".";
  }
}
