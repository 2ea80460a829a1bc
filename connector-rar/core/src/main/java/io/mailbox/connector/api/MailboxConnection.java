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
 *
 * <p>Every operation on an address takes a {@link MailAddress} (parsed once, by the caller) or its
 * text.
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
  Optional<MailMessage> fetch(MailAddress address);

  /** As {@link #fetch(MailAddress)}, the address parsed once (malformed: MBX-1001). */
  default Optional<MailMessage> fetch(String address) {
    return fetch(MailAddress.parse(address));
  }

  /**
   * Fetches as the options say. A manual-ack fetch without its own ack timeout takes the adapter's
   * default lease (property {@code defaultAckTimeoutMillis}).
   */
  List<Delivery> fetch(MailAddress address, FetchOptions options);

  /**
   * As {@link #fetch(MailAddress, FetchOptions)}, the address parsed once (malformed: MBX-1001).
   */
  default List<Delivery> fetch(String address, FetchOptions options) {
    return fetch(MailAddress.parse(address), options);
  }

  /** Read-only copies of up to {@code limit} queued messages. */
  List<MailMessage> peek(MailAddress address, int limit);

  /** As {@link #peek(MailAddress, int)}, the address parsed once (malformed: MBX-1001). */
  default List<MailMessage> peek(String address, int limit) {
    return peek(MailAddress.parse(address), limit);
  }

  /** Settles a leased copy by key and lease id (from a {@link Delivery} or {@link #locate}). */
  boolean settle(MailAddress address, String key, String leaseId, Disposition disposition);

  /**
   * As {@link #settle(MailAddress, String, String, Disposition)}, the address parsed once
   * (malformed: MBX-1001).
   */
  default boolean settle(String address, String key, String leaseId, Disposition disposition) {
    return settle(MailAddress.parse(address), key, leaseId, disposition);
  }

  /** The state of one address; refuses a malformed address before looking. */
  AddressStatus status(MailAddress address);

  /** As {@link #status(MailAddress)}, the address parsed once (malformed: MBX-1001). */
  default AddressStatus status(String address) {
    return status(MailAddress.parse(address));
  }

  /** Every address of every provider, sorted. */
  Snapshot snapshot();

  /**
   * Subscribes a push consumer to {@code address}: the transport hands it copies as they come (at
   * most its own window unsettled, e.g. {@code amqpPrefetch}), each settled when the stage the
   * consumer returned completes (normally: handled; a retriable failure: unhandled; any other:
   * discard). The subscription outlives this connection; close the returned handle to end it. It is
   * a subscriber like a message-driven bean: subscribers of one address in one server each get
   * every copy, servers compete. {@code MBX-1007} where the connection cannot subscribe.
   */
  default AutoCloseable subscribe(
      MailAddress address,
      java.util.function.Function<MailMessage, java.util.concurrent.CompletionStage<Void>>
          consumer) {
    throw new MailboxException(
        ErrorCode.UNSUPPORTED_CAPABILITY, "This connection cannot subscribe to " + address + ".");
  }

  /**
   * Runs {@code signal} once, as soon as {@code address} has a queued copy (at once when it has one
   * now), where its provider can tell ({@value Capabilities#ARRIVAL_SIGNAL}: {@code mem:}, {@code
   * file:}): a fetching consumer waits for it instead of polling an empty queue. The signal runs on
   * the thread that queued the copy and must only hand work off. {@code MBX-1007} where the
   * provider cannot.
   *
   * @return cancels the signal if it has not run yet
   */
  default Runnable onNextArrival(MailAddress address, Runnable signal) {
    throw new MailboxException(
        ErrorCode.UNSUPPORTED_CAPABILITY,
        "This connection cannot signal arrivals at " + address + ".");
  }

  /**
   * Whether the provider of {@code address} can do {@code operation} (a {@link Capabilities} name).
   * False when no provider serves the address's scheme.
   */
  default boolean can(String operation, MailAddress address) {
    return false;
  }

  /**
   * Sends {@code request} to {@code address}'s request channel and waits at most {@code timeout}
   * for the reply (its body and meta). Sent at once, outside any transaction: its reply could never
   * come before a commit. {@code MBX-2010} without a reply in time, {@code MBX-2011} when the
   * responder failed (its error's class and message). Responders consume the request channel,
   * {@code <scheme>://<user>@<host>/rr.req.<path>}, and answer with {@link #reply}.
   */
  default MailMessage request(
      MailAddress address, MailMessage request, java.time.Duration timeout) {
    throw new MailboxException(
        ErrorCode.UNSUPPORTED_CAPABILITY, "This connection cannot send requests.");
  }

  /**
   * Answers {@code request} (a message taken from a request channel) with {@code body}, or with
   * {@code failure}'s class and message when it is not null. A message without a valid reply inbox
   * is not answered (logged).
   */
  default void reply(MailMessage request, String body, Throwable failure) {
    throw new MailboxException(ErrorCode.UNSUPPORTED_CAPABILITY, "This connection cannot reply.");
  }

  /**
   * What went through each address since the adapter started, per provider ({@link
   * AddressTraffic}): counters kept in memory, so reading them never waits for a store or broker.
   */
  default List<AddressTraffic> traffic() {
    return List.of();
  }

  /** Puts the expired leases of one address back into its queue. */
  RecoverResult recover(MailAddress address);

  /** As {@link #recover(MailAddress)}, the address parsed once (malformed: MBX-1001). */
  default RecoverResult recover(String address) {
    return recover(MailAddress.parse(address));
  }

  /** Puts every expired lease back, wherever the providers can. */
  RecoverResult recover();

  /** Every copy of a sender's message id, with the key to act on it. */
  List<LocatedCopy> locate(String messageId);

  /** Records parked at an address (never handed out again). */
  List<MailMessage> peekParked(MailAddress address, int limit);

  /** As {@link #peekParked(MailAddress, int)}, the address parsed once (malformed: MBX-1001). */
  default List<MailMessage> peekParked(String address, int limit) {
    return peekParked(MailAddress.parse(address), limit);
  }

  /** Removes one parked record by key, or all of the address when {@code key} is null. */
  int purgeParked(MailAddress address, String key);

  /**
   * As {@link #purgeParked(MailAddress, String)}, the address parsed once (malformed: MBX-1001).
   */
  default int purgeParked(String address, String key) {
    return purgeParked(MailAddress.parse(address), key);
  }

  /**
   * Removes queued copies of an address (never one in flight): the one with copy key {@code key},
   * or all when {@code key} is null. Needs the provider's {@code remove} capability (MBX-1007).
   */
  int removeQueued(MailAddress address, String key);

  /**
   * As {@link #removeQueued(MailAddress, String)}, the address parsed once (malformed: MBX-1001).
   */
  default int removeQueued(String address, String key) {
    return removeQueued(MailAddress.parse(address), key);
  }

  /** The copies of an address handed out under a lease and not settled, oldest first. */
  List<InFlightCopy> inFlight(MailAddress address, int limit);

  /** As {@link #inFlight(MailAddress, int)}, the address parsed once (malformed: MBX-1001). */
  default List<InFlightCopy> inFlight(String address, int limit) {
    return inFlight(MailAddress.parse(address), limit);
  }

  /** The address a give-up at {@code address} is archived to; empty when dead letters are off. */
  Optional<MailAddress> deadLetterTopic(MailAddress address);

  /** As {@link #deadLetterTopic(MailAddress)}, the address parsed once (malformed: MBX-1001). */
  default Optional<String> deadLetterTopic(String address) {
    return deadLetterTopic(MailAddress.parse(address)).map(MailAddress::toString);
  }

  /** Drops every queued and in-flight message of every provider; subscriptions stay. */
  long clear();

  /** Releases the handle; the pooled physical connection goes back to the pool. */
  @Override
  void close();
}
