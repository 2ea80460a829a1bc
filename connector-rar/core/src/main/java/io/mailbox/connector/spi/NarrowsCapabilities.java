package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;

/**
 * A transport that can do some of its declared capabilities only at some addresses. RabbitMQ, for
 * example, can look into a dead-letter queue nobody consumes, but a look into a live queue would
 * count as a delivery of every message it took. The kernel asks before each such operation and
 * refuses the others with {@code MBX-1007} before anything changes; the console offers only what is
 * possible where it stands ({@code MailboxConnection.can}).
 */
public interface NarrowsCapabilities extends Transport {

  /**
   * Whether the declared {@code capability} is possible at {@code address}. Asked often (every view
   * of an address): answer from names and settings, never from the broker.
   */
  boolean canAt(String capability, MailAddress address);
}
