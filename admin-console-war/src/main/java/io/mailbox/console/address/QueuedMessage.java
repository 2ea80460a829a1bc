package io.mailbox.console.address;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import java.util.Map;

/** One queued message as the address view shows it; never the whole body. */
record QueuedMessage(String id, String sentAt, String round, String preview, String details) {
  static final int PREVIEW_CHARS = 120;
  static final int DETAILS_BODY_CHARS = 2000;

  static QueuedMessage of(MailMessage message) {
    String body = message.body();
    StringBuilder details = new StringBuilder();
    for (Map.Entry<String, String> header : message.headers().entrySet()) {
      details.append(header.getKey()).append(": ").append(header.getValue()).append('\n');
    }
    details.append('\n').append(cut(body, DETAILS_BODY_CHARS));
    return new QueuedMessage(
        message.id(),
        message.header(SystemHeaders.SENT_AT).orElse(""),
        message.header(SystemHeaders.ROUND).orElse("0"),
        cut(body.replaceAll("\\s+", " "), PREVIEW_CHARS),
        details.toString());
  }

  /** The address's numbers in one line. */
  static String numbers(AddressStatus status) {
    String scheme = status.address().scheme();
    Object overdue = status.extensions().get(scheme + ".overdueInFlightCount");
    Object parked = status.extensions().get(scheme + ".parkedCount");
    return status.state().label()
        + " · "
        + status.unreadCount()
        + " unread · "
        + status.inFlightCount()
        + " in flight"
        + (overdue == null ? "" : " (" + overdue + " overdue)")
        + (parked == null ? "" : " · " + parked + " parked");
  }

  static String cut(String text, int max) {
    return text.length() <= max
        ? text
        : text.substring(0, max) + "… (" + text.length() + " characters)";
  }
}
