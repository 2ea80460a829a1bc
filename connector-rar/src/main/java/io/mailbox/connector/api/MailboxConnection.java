package io.mailbox.connector.api;

import java.util.Optional;

/**
 * A handle on the mailbox, obtained from {@link MailboxConnectionFactory}. Close it when done
 * (try-with-resources); a closed handle refuses every call with {@link
 * ErrorCode#CONNECTION_CLOSED}.
 *
 * <p>Inside a JTA transaction a post is held and handed to the provider only when the transaction
 * commits; a rollback delivers nothing. Outside a transaction a post is handed over at once.
 */
public interface MailboxConnection extends AutoCloseable {

  /**
   * Posts a message. Subscribers present when it is delivered each get it; otherwise it is queued
   * for fetch.
   *
   * @return the message id (the sender's, or a generated one)
   */
  String post(MailMessage message);

  /** Takes the next queued message of an address, auto-acknowledged; empty when none waits. */
  Optional<MailMessage> fetch(String address);

  /** The state of one address; refuses a malformed address before looking. */
  AddressStatus status(String address);

  /** Every address of every provider, sorted. */
  Snapshot snapshot();

  /** Releases the handle; the pooled physical connection goes back to the pool. */
  @Override
  void close();
}
