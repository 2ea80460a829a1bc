package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;

/** Capability {@code remove}: an operator's purge, and the last step of a dead-letter replay. */
public interface Removing extends Transport {

  /**
   * Removes queued copies of {@code address} (never one in flight): the one with copy key {@code
   * key}, or all when {@code key} is null; returns how many.
   */
  int removeQueuedCopies(MailAddress address, String key);
}
