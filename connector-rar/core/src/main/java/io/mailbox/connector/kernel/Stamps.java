package io.mailbox.connector.kernel;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Ids;
import io.mailbox.connector.spi.SentAt;
import java.time.Instant;

/**
 * The system headers the kernel writes, and nobody else: at the send boundary each copy gets its
 * own {@code mbx-send-id} and {@code mbx-sent-at} (a sender's system headers are stripped), and
 * whoever hands a copy to a consumer bumps its {@code mbx-round}.
 */
final class Stamps {
  // Rounds and attempts are small numbers stamped on every copy: their texts are made once.
  private static final String[] SMALL_COUNTS = new String[64];

  static {
    for (int i = 0; i < SMALL_COUNTS.length; i++) {
      SMALL_COUNTS[i] = Integer.toString(i);
    }
  }

  private Stamps() {}

  /** The text of a round or attempt count. */
  static String count(int n) {
    return n >= 0 && n < SMALL_COUNTS.length ? SMALL_COUNTS[n] : Integer.toString(n);
  }

  /**
   * A fresh copy of {@code message} with its own send id and time; a sender's system headers go.
   */
  static MailMessage atSendBoundary(MailMessage message, Instant now) {
    MailMessage.Builder copy = message.toBuilder();
    message
        .headers()
        .forEach(
            (name, value) -> {
              if (SystemHeaders.isSystemHeader(name)) {
                copy.removeHeader(name);
              }
            });
    return copy.header(SystemHeaders.SEND_ID, Ids.next())
        .header(SystemHeaders.SENT_AT, SentAt.format(now))
        .build();
  }

  /** The copy as handed out: its round is one more than before. */
  static MailMessage handOut(MailMessage queued) {
    int round = SystemHeaders.intHeader(queued, SystemHeaders.ROUND, 0) + 1;
    return queued.toBuilder().header(SystemHeaders.ROUND, count(round)).build();
  }
}
