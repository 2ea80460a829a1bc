package io.mailbox.console.api;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import java.util.Locale;

/** Which dead letters a reason and a search text keep (shared by the API and the console). */
public final class DeadLetterFilter {
  private DeadLetterFilter() {}

  /**
   * @param reason exact reason ({@code fatal}, {@code consumer-nack}, {@code max-deliveries},
   *     {@code ttl}...), or blank for any
   * @param text a text the error, the source address or the id must contain (any case), or blank
   */
  public static boolean matches(MailMessage record, String reason, String text) {
    if (reason != null
        && !reason.isBlank()
        && !reason.strip().equals(record.header(SystemHeaders.DEAD_LETTER_REASON).orElse(""))) {
      return false;
    }
    if (text == null || text.isBlank()) {
      return true;
    }
    String wanted = text.strip().toLowerCase(Locale.ROOT);
    return (record.header(SystemHeaders.DEAD_LETTER_ERROR).orElse("")
            + " "
            + record.header(SystemHeaders.DEAD_LETTER_TOPIC).orElse("")
            + " "
            + record.id())
        .toLowerCase(Locale.ROOT)
        .contains(wanted);
  }
}
