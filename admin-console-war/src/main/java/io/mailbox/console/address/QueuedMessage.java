package io.mailbox.console.address;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;

/** One queued message as the address view shows it; never the whole body. */
record QueuedMessage(String id, String key, String sentAt, String round, String preview) {
  static final int PREVIEW_CHARS = 120;

  static QueuedMessage of(MailMessage message) {
    return new QueuedMessage(
        message.id(),
        message.sendId().orElse(""),
        message.header(SystemHeaders.SENT_AT).orElse(""),
        message.header(SystemHeaders.ROUND).orElse("0"),
        cut(message.body().replaceAll("\\s+", " "), PREVIEW_CHARS));
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
