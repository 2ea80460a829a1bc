package io.mailbox.connector.api;

import java.util.List;
import java.util.Optional;

/**
 * A handle on the mailbox, obtained from {@link MailboxConnectionFactory}: the kernel's operations
 * (see docs/kernel.md). Close it when done (try-with-resources); a closed handle refuses every call
 * with {@link ErrorCode#CONNECTION_CLOSED}.
 *
 * <p>Inside a JTA transaction a post is held and handed to the provider only when the transaction
 * commits; a rollback delivers nothing. Outside a transaction a post is handed over at once.
 * Fetches and dispositions are not transactional: a {@link Delivery} settles when you settle it,
 * and stays usable after this handle is closed.
 */
public interface MailboxConnection extends AutoCloseable {

  /**
   * Posts a message. Subscribers present when it is delivered each get it; otherwise it is queued
   * for fetch. An unknown scheme is refused here, inside the caller's transaction.
   *
   * @return the message id (the sender's, or a generated one)
   */
  String post(MailMessage message);

  /**
   * Posts several messages issued together, in order: held together inside a transaction, handed
   * over in one call outside one (a {@code jdbc:} provider then shares transactions, {@code amqp:}
   * waits for all confirms once). Every recipient is checked before anything is posted.
   *
   * @return the message ids, in order
   */
  List<String> postAll(List<MailMessage> messages);

  /** Takes the next queued message of an address, auto-acknowledged; empty when none waits. */
  Optional<MailMessage> fetch(String address);

  /**
   * Fetches as the options say. A manual-ack fetch without its own ack timeout takes the adapter's
   * default lease (property {@code defaultAckTimeoutMillis}).
   */
  List<Delivery> fetch(String address, FetchOptions options);

  /** Read-only copies of up to {@code limit} queued messages. */
  List<MailMessage> peek(String address, int limit);

  /** Settles a leased copy by key and lease id (from a {@link Delivery} or {@link #locate}). */
  boolean settle(String address, String key, String leaseId, Disposition disposition);

  /** The state of one address; refuses a malformed address before looking. */
  AddressStatus status(String address);

  /** Every address of every provider, sorted. */
  Snapshot snapshot();

  /** Puts the expired leases of one address back into its queue. */
  RecoverResult recover(String address);

  /** Puts every expired lease back, wherever the providers can. */
  RecoverResult recover();

  /** Every copy of a sender's message id, with the key to act on it. */
  List<LocatedCopy> locate(String messageId);

  /** Records parked at an address (never handed out again). */
  List<MailMessage> peekParked(String address, int limit);

  /** Removes one parked record by key, or all of the address when {@code key} is null. */
  int purgeParked(String address, String key);

  /**
   * Removes queued copies of an address (never one in flight): the one with copy key {@code key},
   * or all when {@code key} is null. Needs the provider's {@code remove} capability (MBX-1007).
   */
  int removeQueued(String address, String key);

  /** The copies of an address handed out under a lease and not settled, oldest first. */
  List<InFlightCopy> inFlight(String address, int limit);

  /** The address a give-up at {@code address} is archived to; empty when dead letters are off. */
  java.util.Optional<String> deadLetterTopic(String address);

  /** Drops every queued and in-flight message of every provider; subscriptions stay. */
  long clear();

  /** Releases the handle; the pooled physical connection goes back to the pool. */
  @Override
  void close();
}
