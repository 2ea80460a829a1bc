package io.mailbox.console.parked;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import java.util.Map;

/** One parked record as the view shows it: why it was given up, where, and a bounded preview. */
record ParkedRecord(
    String key,
    String messageId,
    String reason,
    String source,
    String attempts,
    String error,
    String details) {
  static final int BODY_PREVIEW_CHARS = 2000;

  static ParkedRecord of(MailMessage record) {
    StringBuilder details = new StringBuilder();
    for (Map.Entry<String, String> header : record.headers().entrySet()) {
      details.append(header.getKey()).append(": ").append(header.getValue()).append('\n');
    }
    String body = record.body();
    details
        .append('\n')
        .append(body.length() <= BODY_PREVIEW_CHARS ? body : body.substring(0, BODY_PREVIEW_CHARS))
        .append(
            body.length() <= BODY_PREVIEW_CHARS
                ? ""
                : "\n… (" + body.length() + " characters, first " + BODY_PREVIEW_CHARS + " shown)");
    return new ParkedRecord(
        record.sendId().orElse(""),
        record.id(),
        record.header(SystemHeaders.DEAD_LETTER_REASON).orElse(""),
        record.header(SystemHeaders.DEAD_LETTER_TOPIC).orElse(""),
        record.header(SystemHeaders.DEAD_LETTER_ATTEMPTS).orElse(""),
        record.header(SystemHeaders.DEAD_LETTER_ERROR).orElse(""),
        details.toString());
  }
}
