package io.mailbox.console.parked;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;

/** One parked record as the view shows it: why it was given up, where, and a bounded preview. */
record ParkedRecord(
    String key,
    String messageId,
    String reason,
    String source,
    String attempts,
    String error,
    String details) {
  static ParkedRecord of(MailMessage record) {
    return new ParkedRecord(
        record.sendId().orElse(""),
        record.id(),
        record.header(SystemHeaders.DEAD_LETTER_REASON).orElse(""),
        record.header(SystemHeaders.DEAD_LETTER_TOPIC).orElse(""),
        record.header(SystemHeaders.DEAD_LETTER_ATTEMPTS).orElse(""),
        record.header(SystemHeaders.DEAD_LETTER_ERROR).orElse(""),
        io.mailbox.console.layout.ConsoleText.details(record));
  }
}
