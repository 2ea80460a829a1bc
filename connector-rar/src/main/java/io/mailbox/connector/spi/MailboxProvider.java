package io.mailbox.connector.spi;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.RecoverResult;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.DeliveryChain;
import io.mailbox.connector.kernel.DeliveryOutcome;
import io.mailbox.connector.kernel.Ids;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.kernel.RetryPolicy;
import io.mailbox.connector.kernel.SubscribeOptions;
import io.mailbox.connector.kernel.Subscription;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The base every transport extends. It owns what is hardest to get right by hand, once, so that a
 * provider implements only its transport:
 *
 * <ul>
 *   <li><b>the send boundary</b> ({@link #post}): each copy gets its own {@code mbx-send-id} and
 *       {@code mbx-sent-at}; system headers a sender set are stripped;
 *   <li><b>capabilities</b>: an operation the provider does not declare fails with {@code MBX-1007}
 *       before anything changes;
 *   <li><b>broadcast settlement</b> ({@link #dispatch}): one delivery chain per subscriber with
 *       retries, backoff and a watchdog; once all have ended: any handled → done (failures
 *       dead-lettered), none handled but some retriable → one copy back to the queue, all fatal →
 *       given up;
 *   <li><b>pull settlement</b> ({@link #settle}): one fetch, one disposition, by copy key and
 *       lease;
 *   <li><b>dead letters and parking</b>: a given-up copy is archived to its dead-letter topic with
 *       reason / attempts / round / error / source / depth, or parked at the end of the chain;
 *   <li><b>teardown</b>: {@link #stop} closes every subscription before the transport's {@link
 *       #onStop}.
 * </ul>
 *
 * <p>Hooks a transport does not implement answer with a warning, logged once per provider, never
 * with a silent no-op.
 */
public abstract class MailboxProvider {
  private static final Logger LOG = Logger.getLogger(MailboxProvider.class.getName());

  /** The watchdog over one delivery attempt unless configured otherwise. */
  public static final Duration DEFAULT_DELIVERY_SETTLE_TIMEOUT = Duration.ofSeconds(30);

  private final Clock clock;
  private final Scheduler scheduler;
  private final Set<ProviderSubscription> subscriptions = ConcurrentHashMap.newKeySet();
  private final Map<MailAddress, AtomicLong> broadcastsInFlight = new ConcurrentHashMap<>();
  private final Set<String> warnedHooks = ConcurrentHashMap.newKeySet();
  private final AtomicInteger registrations = new AtomicInteger();
  private volatile RetryPolicy retryPolicy;
  private volatile DeadLetterPolicy deadLetterPolicy;
  private volatile Duration deliverySettleTimeout = DEFAULT_DELIVERY_SETTLE_TIMEOUT;
  private volatile boolean started;

  protected MailboxProvider(Clock clock, Scheduler scheduler) {
    this.clock = clock;
    this.scheduler = scheduler;
  }

  /** The URI scheme this provider serves, lower case, for example {@code mem}. */
  public abstract String scheme();

  // ---- lifecycle -------------------------------------------------------------------------------

  /** Starts the transport (connects, warms up). Idempotent. */
  public final synchronized void start() {
    if (!started) {
      onStart();
      started = true;
    }
  }

  /**
   * Stops the provider: every subscription is closed first (deliveries waiting in a retry backoff
   * are called off, running ones settle on their own), then the transport. Queued messages are kept
   * unless {@code purge}.
   */
  public final synchronized void stop(boolean purge) {
    started = false;
    for (ProviderSubscription subscription : List.copyOf(subscriptions)) {
      subscription.unsubscribe();
    }
    onStop(purge);
  }

  public final boolean isStarted() {
    return started;
  }

  /** Called by the kernel on registration; warns when one instance is registered twice. */
  public final void registered() {
    if (registrations.incrementAndGet() > 1) {
      LOG.warning(
          () ->
              "The '"
                  + scheme()
                  + ":' provider instance is registered on more than one mailbox: stopping one stops the"
                  + " other's subscriptions. Create one provider per mailbox.");
    }
  }

  // ---- configuration ---------------------------------------------------------------------------

  /** Opts into redelivery of failing subscribers; {@code null} returns to a single attempt. */
  public final void setRetryPolicy(RetryPolicy policy) {
    this.retryPolicy = policy;
  }

  public final Optional<RetryPolicy> retryPolicy() {
    return Optional.ofNullable(retryPolicy);
  }

  /** Archives given-up messages to {@code <topic><suffix>} from now on. */
  public final void enableDeadLetterQueue(DeadLetterPolicy policy) {
    this.deadLetterPolicy = policy;
  }

  /** Given-up messages are dropped (and logged) again. */
  public final void disableDeadLetterQueue() {
    this.deadLetterPolicy = null;
  }

  public final Optional<DeadLetterPolicy> deadLetterPolicy() {
    return Optional.ofNullable(deadLetterPolicy);
  }

  /**
   * Where a give-up at {@code address} lands: its dead-letter topic, the address itself at the end
   * of the chain (parked there), or empty when dead-lettering is off.
   */
  public final Optional<MailAddress> deadLetterTopic(MailAddress address) {
    DeadLetterPolicy policy = deadLetterPolicy;
    return policy == null ? Optional.empty() : Optional.of(policy.deadLetterTopic(address));
  }

  /**
   * The watchdog per delivery attempt; {@link Duration#ZERO} switches it off (you own stuck
   * callbacks).
   */
  public final void setDeliverySettleTimeout(Duration timeout) {
    if (timeout == null || timeout.isNegative()) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY, "The delivery settle timeout must be zero or positive.");
    }
    this.deliverySettleTimeout = timeout;
  }

  public final Duration deliverySettleTimeout() {
    return deliverySettleTimeout;
  }

  // ---- capabilities ----------------------------------------------------------------------------

  /** Everything this provider can do now: its transport's declaration plus enabled options. */
  public final Set<String> supports() {
    Set<String> all = new TreeSet<>(declaredCapabilities());
    if (deadLetterPolicy != null) {
      all.add(Capabilities.DEAD_LETTER);
    }
    return Collections.unmodifiableSet(all);
  }

  public final boolean supports(String capability) {
    return supports().contains(capability);
  }

  /**
   * Whether {@code operation} is possible at {@code address} (for now: declared for the provider).
   */
  public boolean can(String operation, MailAddress address) {
    return supports(operation);
  }

  /** What the transport can do; see {@link Capabilities}. */
  protected abstract Set<String> declaredCapabilities();

  final void requireDisposition(Disposition disposition) {
    if (!disposition.isCore()) {
      requireCapability(disposition.capability());
    }
  }

  private void requireCapability(String capability) {
    if (!supports(capability)) {
      throw new MailboxException(
          ErrorCode.UNSUPPORTED_CAPABILITY,
          "The '"
              + scheme()
              + ":' provider does not support '"
              + capability
              + "'; it declares "
              + supports()
              + ".");
    }
  }

  // ---- operations ------------------------------------------------------------------------------

  /**
   * The send boundary: stamps a fresh copy and hands it to the transport.
   *
   * @return the copy as it was handed over, with its send id
   */
  public final MailMessage post(MailMessage message) {
    requireStarted();
    requireOwnScheme(message.to());
    MailMessage stamped = stamp(message);
    send(stamped.to(), stamped);
    return stamped;
  }

  /**
   * Posts several messages issued together, in order; returns once every one was handed over (on a
   * durable provider: stored). Every address is checked before anything is sent. A provider that
   * can store them together does so ({@code jdbc:} commits them in shared transactions), which is
   * much cheaper than one post after another. Not atomic as a whole: if it throws, messages sent
   * before the failure stay sent, and the exception says so where the provider knows.
   *
   * @return the copies as they were handed over, in the order given
   */
  public final List<MailMessage> postAll(List<MailMessage> messages) {
    requireStarted();
    messages.forEach(message -> requireOwnScheme(message.to()));
    List<MailMessage> stamped = messages.stream().map(this::stamp).toList();
    sendAll(stamped);
    return stamped;
  }

  /**
   * A fresh copy of {@code message} with its own send id and time; a sender's system headers go.
   */
  private MailMessage stamp(MailMessage message) {
    MailMessage.Builder copy = message.toBuilder();
    message.headers().keySet().stream()
        .filter(SystemHeaders::isSystemHeader)
        .forEach(copy::removeHeader);
    return copy.header(SystemHeaders.SEND_ID, Ids.next())
        .header(SystemHeaders.SENT_AT, now().toString())
        .build();
  }

  /** Registers a push consumer; returns once the transport has established it. */
  public final Subscription subscribe(MailAddress address, MailboxSubscriber subscriber) {
    return subscribe(address, subscriber, SubscribeOptions.defaults());
  }

  /** Registers a push consumer with its own options (retry policy). */
  public final Subscription subscribe(
      MailAddress address, MailboxSubscriber subscriber, SubscribeOptions options) {
    requireStarted();
    requireOwnScheme(address);
    ProviderSubscription subscription =
        new ProviderSubscription(address, subscriber, options, this::closeSubscription);
    subscriptions.add(subscription);
    try {
      subscription.attach(openSubscription(address, subscription));
    } catch (RuntimeException e) {
      subscriptions.remove(subscription);
      throw e;
    }
    return subscription;
  }

  private void closeSubscription(ProviderSubscription subscription) {
    subscriptions.remove(subscription);
    AutoCloseable handle = subscription.transportHandle();
    if (handle == null) {
      return;
    }
    try {
      handle.close();
    } catch (Exception e) {
      LOG.log(Level.WARNING, "Closing a subscription to " + subscription.address() + " failed", e);
    }
  }

  /**
   * Fetches queued messages: auto-acknowledged, under a lease (manual ack), or as read-only copies
   * (peek). Options were validated when built; capabilities are checked here, before anything is
   * taken.
   */
  public final List<Delivery> fetch(MailAddress address, FetchOptions options) {
    requireStarted();
    requireOwnScheme(address);
    if (options.peek()) {
      requireCapability(Capabilities.PEEK);
      return peekQueued(address, options.limit()).stream()
          .<Delivery>map(copy -> new ProviderDeliveries.Settled(address, copy))
          .toList();
    }
    if (!options.manualAck()) {
      return takeQueued(address, options.limit(), null, this::handOut).stream()
          .<Delivery>map(copy -> new ProviderDeliveries.Settled(address, copy))
          .toList();
    }
    requireCapability(Capabilities.LEASE);
    Duration timeout = options.effectiveAckTimeout();
    List<Delivery> deliveries = new ArrayList<>();
    // One lease per copy, starting when that copy is handed out: each can be settled (or
    // reclaimed) on its own, and a slow multi-message fetch never re-takes its own early copies.
    for (int i = 0; i < options.limit(); i++) {
      Instant now = now();
      Lease lease = new Lease(Ids.next(), now, timeout.isZero() ? null : now.plus(timeout));
      List<MailMessage> taken = takeQueued(address, 1, lease, this::handOut);
      if (taken.isEmpty()) {
        break;
      }
      deliveries.add(new ProviderDeliveries.Leased(this, address, taken.get(0), lease));
    }
    return deliveries;
  }

  /** Stamps the hand-out round: whoever hands a copy to a consumer bumps {@code mbx-round}. */
  private MailMessage handOut(MailMessage queued) {
    int round = SystemHeaders.intHeader(queued, SystemHeaders.ROUND, 0) + 1;
    return queued.toBuilder().header(SystemHeaders.ROUND, Integer.toString(round)).build();
  }

  /**
   * Settles a leased copy by its key and lease id (never by the sender's message id).
   *
   * @return true when it took effect; false, changing nothing, when the lease is unknown, was
   *     reclaimed, belongs to another hand-out, or was already settled
   */
  public final boolean settle(
      MailAddress address, String key, String leaseId, Disposition disposition) {
    requireOwnScheme(address);
    requireDisposition(disposition);
    if (key == null || leaseId == null) {
      return false;
    }
    Optional<MailMessage> released = releaseLease(address, key, leaseId);
    if (released.isEmpty()) {
      return false;
    }
    MailMessage copy = released.get();
    if (disposition.equals(Disposition.HANDLED)) {
      acknowledge(address, copy);
    } else if (disposition.equals(Disposition.UNHANDLED)) {
      requeueCopy(address, copy);
    } else if (disposition.equals(Disposition.DISCARD)) {
      giveUp(
          address,
          copy,
          "consumer-nack",
          SystemHeaders.intHeader(copy, SystemHeaders.ATTEMPT, 1),
          null);
    } else if (!disposition.equals(Disposition.HANDLED)) {
      applyCustomDisposition(address, copy, disposition);
    }
    return true;
  }

  /**
   * Whether the transport can be reached now (a broker answered a recent round trip). Embedded
   * transports are always reachable; a provider that is not makes the snapshot offline.
   */
  public boolean reachable() {
    return true;
  }

  /** The status of one address. Works on a stopped provider too (it reports what it knows). */
  public abstract AddressStatus status(MailAddress address);

  /**
   * Every address this provider knows, or empty when it cannot enumerate (a broker that does not
   * list its queues): the snapshot then reports the provider as unsupported.
   */
  public abstract Optional<List<AddressStatus>> enumerate();

  /** Puts expired leases of one address back into its queue. Idempotent. */
  public final RecoverResult recover(MailAddress address) {
    requireOwnScheme(address);
    if (!supports(Capabilities.RECOVER)) {
      return RecoverResult.unsupported(scheme());
    }
    long reclaimed = reclaimExpired(address);
    return new RecoverResult(
        reclaimed, true, reclaimed > 0 ? Map.of(address, reclaimed) : Map.of(), List.of());
  }

  /** Every copy of a sender's message id, wherever it is, with the key to act on it. Read-only. */
  public final List<LocatedCopy> locate(String messageId) {
    requireCapability(Capabilities.LOCATE);
    return locateCopies(messageId);
  }

  /** Read-only copies of the records parked at {@code address}, oldest first. */
  public final List<MailMessage> peekParked(MailAddress address, int limit) {
    requireOwnScheme(address);
    requireCapability(Capabilities.PARKED);
    return parkedCopies(address, Math.max(1, limit));
  }

  /** Removes parked records: all of {@code address}, or only the one with copy key {@code key}. */
  public final int purgeParked(MailAddress address, String key) {
    requireOwnScheme(address);
    requireCapability(Capabilities.PARKED);
    return removeParked(address, key);
  }

  /**
   * Removes queued copies of {@code address} (never one in flight: it settles on its own): the one
   * with copy key {@code key}, or every queued copy when {@code key} is null.
   *
   * @return how many were removed
   */
  public final int removeQueued(MailAddress address, String key) {
    requireOwnScheme(address);
    requireCapability(Capabilities.REMOVE);
    return removeQueuedCopies(address, key);
  }

  /** The copies of {@code address} handed out under a lease and not settled, oldest first. */
  public final List<io.mailbox.connector.api.InFlightCopy> inFlight(
      MailAddress address, int limit) {
    requireOwnScheme(address);
    requireCapability(Capabilities.LEASE);
    return inFlightCopies(address, Math.max(1, limit));
  }

  /** Drops every queued and in-flight message; subscriptions and parked records stay. */
  public final long clear() {
    return clearBacklog();
  }

  /** The number of subscriptions currently attached; zero after {@link #stop}. */
  public final int subscriptionCount() {
    return subscriptions.size();
  }

  // ---- diagnostics -----------------------------------------------------------------------------

  /**
   * The sizes of this provider's bookkeeping: what must stay flat while traffic flows (the soak
   * command, {@code bin/soak}, watches it). Read-only; each number is read on its own, so together
   * they are a moment's view, not a consistent snapshot. The base reports {@code subscriptions},
   * {@code deliveryChains} (subscriber deliveries not yet ended, retry backoffs included), {@code
   * broadcastAddresses} (entries of the per-address broadcast counter) and {@code
   * broadcastsInFlight}; the transport adds its own, prefixed with its scheme.
   *
   * @return sizes by name, sorted by name
   */
  public final Map<String, Long> bookkeeping() {
    Map<String, Long> sizes = new TreeMap<>();
    sizes.put("subscriptions", (long) subscriptions.size());
    sizes.put(
        "deliveryChains",
        subscriptions.stream().mapToLong(ProviderSubscription::trackedChains).sum());
    sizes.put("broadcastAddresses", (long) broadcastsInFlight.size());
    sizes.put(
        "broadcastsInFlight",
        broadcastsInFlight.values().stream().mapToLong(AtomicLong::get).sum());
    transportBookkeeping(sizes);
    return Collections.unmodifiableMap(sizes);
  }

  /**
   * Adds the transport's bookkeeping sizes (queues, lease tables, dedupe windows, per-address maps)
   * to {@code sizes}, each key prefixed with the scheme. Must not change anything.
   */
  protected void transportBookkeeping(Map<String, Long> sizes) {}

  // ---- hooks a transport implements -------------------------------------------------------------

  /** Connects the transport. Called once per start. */
  protected void onStart() {}

  /**
   * Releases the transport after every subscription was closed; drops the backlog if {@code purge}.
   */
  protected void onStop(boolean purge) {}

  /**
   * Hands a copy to {@code topic}: to every subscriber present (through {@link #dispatch}), else to
   * its queue; never both. {@code topic} differs from {@code copy.to()} for dead-letter records.
   */
  protected abstract void send(MailAddress topic, MailMessage copy);

  /**
   * Hands over stamped copies posted together, in order. By default one {@link #send} after
   * another; override to store them together.
   */
  protected void sendAll(List<MailMessage> copies) {
    copies.forEach(copy -> send(copy.to(), copy));
  }

  /**
   * Attaches a subscription in the transport; deliveries for it go through {@link #dispatch}.
   *
   * @return a handle the base closes on unsubscribe or stop
   */
  protected abstract AutoCloseable openSubscription(
      MailAddress address, ProviderSubscription subscription);

  /**
   * Removes up to {@code limit} queued copies, applying {@code handOut} to each. With a lease the
   * transport keeps each copy in flight under it (and may first reclaim expired leases); without
   * one they are settled at once.
   */
  protected List<MailMessage> takeQueued(
      MailAddress address,
      int limit,
      Lease lease,
      java.util.function.UnaryOperator<MailMessage> handOut) {
    warnMissingHook("takeQueued", "fetch returns nothing");
    return List.of();
  }

  /** Copies of up to {@code limit} queued messages, changing nothing. Needed for {@code peek}. */
  protected List<MailMessage> peekQueued(MailAddress address, int limit) {
    warnMissingHook("peekQueued", "peek returns nothing");
    return List.of();
  }

  /**
   * Ends the lease {@code leaseId} on copy {@code key} and returns the copy, or empty when that
   * hand-out is not in flight any more (settled, reclaimed, dropped).
   */
  protected Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
    warnMissingHook("releaseLease", "dispositions of fetched messages are not carried out");
    return Optional.empty();
  }

  /**
   * Puts a copy back at the head of its queue, unless that copy (by key) is already queued or in
   * flight: a message is never queued twice.
   *
   * @return whether the copy was queued
   */
  protected boolean requeue(MailAddress address, MailMessage copy) {
    warnMissingHook(
        "requeue", "a message that should go back to its queue stays where the transport left it");
    return false;
  }

  /** Keeps a record that must never be handed out again; counted, peekable and purgeable. */
  protected void park(MailAddress address, MailMessage record) {
    warnMissingHook("park", "parked records are only logged");
    LOG.severe(
        () ->
            "Could not park "
                + record
                + " at "
                + address
                + ": the transport keeps no parked records");
  }

  /**
   * The transport's acknowledgement: a handed-out copy is done (a fetch settled it as handled, or
   * at least one subscriber handled a broadcast). Transports that keep a copy until then (a broker
   * delivery, a file) release it here; in-memory queues have nothing left to do.
   */
  protected void acknowledge(MailAddress topic, MailMessage copy) {}

  /** Tells the transport a copy is given up, so it stops redelivering it (a broker's nack). */
  protected void abandon(MailAddress address, MailMessage copy) {}

  /** Carries out a provider-declared disposition on a released copy. */
  protected void applyCustomDisposition(
      MailAddress address, MailMessage copy, Disposition disposition) {
    warnMissingHook(
        "applyCustomDisposition",
        "the declared disposition '" + disposition + "' acts like handled");
  }

  /** Reclaims the expired leases of {@code address}; returns how many went back to the queue. */
  protected long reclaimExpired(MailAddress address) {
    return 0;
  }

  /** Every copy of {@code messageId}. Needed for {@code locate}. */
  protected List<LocatedCopy> locateCopies(String messageId) {
    return List.of();
  }

  /** Parked records of {@code address}. Needed for {@code peekParked}. */
  protected List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return List.of();
  }

  /** Removes parked records (all when {@code key} is null). Needed for {@code purgeParked}. */
  protected int removeParked(MailAddress address, String key) {
    return 0;
  }

  /** Copies in flight under a lease at {@code address}. Needed with {@code lease}. */
  protected List<io.mailbox.connector.api.InFlightCopy> inFlightCopies(
      MailAddress address, int limit) {
    warnMissingHook("inFlightCopies", "in-flight copies are not listed");
    return List.of();
  }

  /** Removes queued copies (all when {@code key} is null). Needed for {@code removeQueued}. */
  protected int removeQueuedCopies(MailAddress address, String key) {
    warnMissingHook("removeQueuedCopies", "nothing was removed");
    return 0;
  }

  /** Drops queued and in-flight messages of every address; returns how many. */
  protected long clearBacklog() {
    warnMissingHook("clearBacklog", "clear() dropped nothing");
    return 0;
  }

  /**
   * Alerting point: a delivery used up its retry budget (not a give-up: it may still be requeued).
   */
  protected void onRetryExhausted(MailAddress address, MailMessage copy) {
    LOG.info(() -> "Retries exhausted for " + copy + " at " + address);
  }

  // ---- services for transports ----------------------------------------------------------------

  /**
   * Delivers one copy to the given subscriptions of {@code topic} and settles it once every
   * delivery has ended (see the class comment). Call it outside any lock the transport holds.
   */
  protected final void dispatch(
      MailAddress topic, MailMessage copy, List<ProviderSubscription> receivers) {
    MailMessage handedOut = handOut(copy);
    AtomicLong inFlight = broadcastsInFlight.computeIfAbsent(topic, ignored -> new AtomicLong());
    inFlight.incrementAndGet();
    List<DeliveryOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger remaining = new AtomicInteger(receivers.size());
    RetryPolicy providerPolicy = retryPolicy;
    Duration timeout = deliverySettleTimeout;
    for (ProviderSubscription receiver : receivers) {
      RetryPolicy policy = receiver.options().retry().orElse(providerPolicy);
      DeliveryChain[] self = new DeliveryChain[1];
      self[0] =
          new DeliveryChain(
              handedOut,
              receiver.subscriber(),
              policy,
              timeout,
              scheduler,
              receiver::isActive,
              () -> onRetryExhausted(topic, handedOut),
              outcome -> {
                receiver.untrack(self[0]);
                outcomes.add(outcome);
                if (remaining.decrementAndGet() == 0) {
                  inFlight.decrementAndGet();
                  settleBroadcast(topic, handedOut, List.copyOf(outcomes));
                }
              });
      receiver.track(self[0]);
      self[0].start();
    }
  }

  private void settleBroadcast(
      MailAddress topic, MailMessage copy, List<DeliveryOutcome> outcomes) {
    List<DeliveryOutcome> failed = outcomes.stream().filter(o -> !o.handled()).toList();
    if (failed.size() < outcomes.size()) {
      // Somebody handled it: never requeue (that would repeat the side effect); archive the
      // failures.
      acknowledge(topic, copy);
      if (!failed.isEmpty()) {
        DeliveryOutcome first = failed.get(0);
        giveUp(topic, copy, first.deadLetterReason(), maxAttempts(failed), first.failure());
      }
      return;
    }
    if (failed.stream().anyMatch(o -> o.disposition().equals(Disposition.UNHANDLED))) {
      requeueCopy(topic, copy);
      return;
    }
    giveUp(topic, copy, "fatal", maxAttempts(failed), failed.get(0).failure());
  }

  private static int maxAttempts(List<DeliveryOutcome> outcomes) {
    return outcomes.stream().mapToInt(DeliveryOutcome::attempts).max().orElse(1);
  }

  private void requeueCopy(MailAddress topic, MailMessage copy) {
    // The attempt counter restarts once the message is back in the queue; the round carries on.
    MailMessage queued =
        copy.toBuilder()
            .removeHeader(SystemHeaders.ATTEMPT)
            .removeHeader(SystemHeaders.MAX_ATTEMPTS)
            .build();
    requeue(topic, queued);
  }

  /**
   * Gives a copy up: tells the transport, then archives it to the dead-letter topic, parks it at
   * the end of the chain, or (dead-lettering off) logs that it was dropped.
   */
  private void giveUp(
      MailAddress topic, MailMessage copy, String reason, int attempts, Throwable failure) {
    DeadLetterPolicy policy = deadLetterPolicy;
    String error = DeliveryChain.describe(failure);
    if (policy == null) {
      replaceGivenUp(topic, copy, () -> {});
      LOG.warning(
          () ->
              "Gave up on "
                  + copy
                  + " at "
                  + topic
                  + " ("
                  + reason
                  + "); no dead-letter queue, dropped. "
                  + error);
      return;
    }
    int depth = SystemHeaders.intHeader(copy, SystemHeaders.DEAD_LETTER_DEPTH, 0) + 1;
    MailMessage.Builder record =
        copy.toBuilder()
            .removeHeader(SystemHeaders.ATTEMPT)
            .removeHeader(SystemHeaders.MAX_ATTEMPTS)
            .header(SystemHeaders.DEAD_LETTER_REASON, reason)
            .header(SystemHeaders.DEAD_LETTER_ATTEMPTS, Integer.toString(attempts))
            .header(
                SystemHeaders.DEAD_LETTER_ROUND,
                Integer.toString(SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1)))
            .header(SystemHeaders.DEAD_LETTER_ERROR, error)
            .header(SystemHeaders.DEAD_LETTER_TOPIC, topic.toString());
    MailAddress target = policy.deadLetterTopic(topic);
    if (depth > policy.maxNesting() || target.equals(topic)) {
      MailMessage parked = record.header(SystemHeaders.DEAD_LETTER_TERMINAL, "true").build();
      LOG.severe(
          () ->
              "Parked "
                  + parked
                  + " at "
                  + topic
                  + " ("
                  + reason
                  + "): the dead-letter chain is at its cap");
      replaceGivenUp(topic, copy, () -> park(topic, parked));
      return;
    }
    MailMessage archived =
        record
            .header(SystemHeaders.DEAD_LETTER_DEPTH, Integer.toString(depth))
            .removeHeader(SystemHeaders.ROUND)
            .header(SystemHeaders.SEND_ID, Ids.next())
            .header(SystemHeaders.SENT_AT, now().toString())
            .build();
    replaceGivenUp(topic, copy, () -> send(target, archived));
  }

  /**
   * Removes a given-up copy from its topic ({@link #abandon}) and stores what replaces it — the
   * dead-letter post or the parked record, or nothing when dead letters are off. By default these
   * are two steps; a transport that can do both at once (one database transaction) overrides this,
   * so a crash between them cannot lose the copy.
   */
  protected void replaceGivenUp(MailAddress topic, MailMessage copy, Runnable storeReplacement) {
    abandon(topic, copy);
    storeReplacement.run();
  }

  /**
   * Gives up a queued copy the transport will not hand out (its delivery cap or time to live is
   * spent): archived to the dead-letter topic with {@code reason}, parked at the end of the chain,
   * or dropped with a warning when dead letters are off — exactly as a consumer's discard.
   */
  protected final void giveUpQueued(
      MailAddress topic, MailMessage copy, String reason, int deliveries) {
    giveUp(topic, copy, reason, deliveries, null);
  }

  /** Broadcasts of {@code topic} whose deliveries have not all ended yet. */
  protected final long broadcastsInFlight(MailAddress topic) {
    AtomicLong count = broadcastsInFlight.get(topic);
    return count == null ? 0 : count.get();
  }

  protected final Instant now() {
    return clock.instant();
  }

  protected final Scheduler scheduler() {
    return scheduler;
  }

  private void warnMissingHook(String hook, String consequence) {
    if (warnedHooks.add(hook)) {
      LOG.warning(
          () ->
              "The '"
                  + scheme()
                  + ":' provider does not implement "
                  + hook
                  + "(): "
                  + consequence
                  + ".");
    }
  }

  private void requireStarted() {
    if (!started) {
      throw new MailboxException(
          ErrorCode.NOT_STARTED,
          "The '" + scheme() + ":' provider is not started; start the mailbox first.");
    }
  }

  private void requireOwnScheme(MailAddress address) {
    if (!scheme().equals(address.scheme())) {
      throw new MailboxException(
          ErrorCode.UNKNOWN_SCHEME,
          "Address "
              + address
              + " is not a '"
              + scheme()
              + ":' address; post it through the mailbox kernel.");
    }
  }
}
