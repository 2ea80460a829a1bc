package io.mailbox.connector.api;

/**
 * Names of what a provider may declare it can do. Asking for something undeclared fails with {@link
 * ErrorCode#UNSUPPORTED_CAPABILITY} before anything changes; it never silently degrades.
 */
public final class Capabilities {
  /** Read-only copies of the queue: {@code fetch(address, FetchOptions.peek(n))}. */
  public static final String PEEK = "peek";

  /** Manual-ack fetches with leases and per-fetch ack timeouts. */
  public static final String LEASE = "lease";

  /** Reclaiming expired leases on demand ({@code recover}). */
  public static final String RECOVER = "recover";

  /** Per-address status with real counts. */
  public static final String STATUS = "status";

  /** Listing every address the provider knows (for the snapshot). */
  public static final String ENUMERATE = "enumerate";

  /** Finding every copy of a message id ({@code locate}). */
  public static final String LOCATE = "locate";

  /**
   * Subscribers are also handed the backlog: messages queued while their address had no subscriber
   * (a durable queue whose consumer starts after the posts, or after a restart). Without it a
   * queued message waits for a fetch and is never pushed to a later subscriber.
   */
  public static final String SUBSCRIBERS_TAKE_BACKLOG = "subscribers-take-backlog";

  /**
   * The provider signals, in this process, when a copy is queued at an address ({@code
   * onNextArrival}): a fetching consumer waits for it instead of polling an empty queue.
   */
  public static final String ARRIVAL_SIGNAL = "arrival-signal";

  /**
   * Removing queued copies of an address, one by its key or all of them ({@code removeQueued}): an
   * operator's purge, and the last step of a dead-letter replay.
   */
  public static final String REMOVE = "remove";

  /**
   * Removing every queued copy of an address at once ({@code removeQueued} with no key): an
   * operator's purge. Every transport that can {@link #REMOVE} can purge; a broker that can purge a
   * queue but not take one message out of it declares only this ({@code spi.Purging}).
   */
  public static final String PURGE = "purge";

  /**
   * The copies of one {@code postAll} to one address are stored in the order given, and a copy only
   * if every earlier one was ({@code spi.KeepsBatchOrder}).
   */
  public static final String ORDERED_BATCH = "ordered-batch";

  /** Parked records: {@code peekParked} / {@code purgeParked} of all of them. */
  public static final String PARKED = "parked";

  /**
   * Removing one parked record by its key ({@code purgeParked} with a key). A transport that keeps
   * its parked records in a log (a Kafka topic) lists and purges them all but cannot take one out,
   * and does not declare this.
   */
  public static final String PARKED_REMOVE = "parked-remove";

  /** Given-up messages are archived to a dead-letter topic (declared while enabled). */
  public static final String DEAD_LETTER = "dead-letter";

  /** Prefix of a provider's own dispositions, for example {@code disposition:reject}. */
  public static final String DISPOSITION_PREFIX = "disposition:";

  private Capabilities() {}
}
