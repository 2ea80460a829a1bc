package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.List;

/** Capability {@code peek}: read-only copies of a queue. */
public interface Peeking extends Transport {

  /** Copies of up to {@code limit} queued messages, oldest first, changing nothing. */
  List<MailMessage> peekQueued(MailAddress address, int limit);
}
