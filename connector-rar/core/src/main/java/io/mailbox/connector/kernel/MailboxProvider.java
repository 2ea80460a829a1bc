package io.mailbox.connector.kernel;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.RecoverResult;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.Leasing;
import io.mailbox.connector.spi.Locating;
import io.mailbox.connector.spi.ParkedRecords;
import io.mailbox.connector.spi.Purging;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Removing;
import io.mailbox.connector.spi.SignalsArrivals;
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * A transport under the kernel's rules: what the {@link Mailbox} registers for one scheme. Each
 * rule has its class — {@link Stamps} (the send boundary), {@link CapabilityGuard}, {@link
 * BroadcastSettlement}, {@link PullSettlement}, {@link Settlement}, {@link DeadLetters} — and this
 * class wires them to one {@link Transport}, which only carries the copies.
 */
public final class MailboxProvider {
  private static final Logger LOG = Logger.getLogger(MailboxProvider.class.getName());

  /** The watchdog over one delivery attempt unless configured otherwise. */
  public static final Duration DEFAULT_DELIVERY_SETTLE_TIMEOUT = Duration.ofSeconds(30);

  private final Transport transport;
  private final Set<ProviderSubscription> subscriptions = ConcurrentHashMap.newKeySet();
  private final AtomicInteger registrations = new AtomicInteger();
  private final DeadLetters deadLetters;
  private final CapabilityGuard guard;
  private final Settlement settlement;
  private final BroadcastSettlement broadcasts;
  private final PullSettlement pull;
  private final TrafficCounters traffic;
  private final PostSender sender;
  private volatile RetryPolicy retryPolicy;
  private volatile Duration deliverySettleTimeout = DEFAULT_DELIVERY_SETTLE_TIMEOUT;
  private volatile boolean started;

  private MailboxProvider(Transport transport) {
    this.transport = transport;
    this.traffic = new TrafficCounters(transport.scheme());
    this.sender = new PostSender(transport, traffic);
    this.deadLetters = new DeadLetters(transport, traffic);
    this.guard = new CapabilityGuard(transport, () -> deadLetters.policy().isPresent());
    this.settlement = new Settlement(transport, deadLetters, traffic);
    this.broadcasts =
        new BroadcastSettlement(
            settlement,
            transport.scheduler(),
            transport.clock(),
            () -> retryPolicy,
            () -> deliverySettleTimeout,
            traffic);
    this.pull = new PullSettlement(transport, guard, settlement, traffic);
    transport.attach(new ProviderContext(this, broadcasts, settlement, deadLetters));
  }

  /** Puts {@code transport} under the kernel's rules; one provider per transport instance. */
  public static MailboxProvider of(Transport transport) {
    return new MailboxProvider(transport);
  }

  /** The transport underneath, for its own settings and diagnostics. */
  public Transport transport() {
    return transport;
  }

  /** The URI scheme this provider serves, lower case, for example {@code mem}. */
  public String scheme() {
    return transport.scheme();
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /** Starts the transport (connects, warms up). Idempotent. */
  public synchronized void start() {
    if (!started) {
      transport.start();
      started = true;
    }
  }

  /**
   * Stops the provider: every subscription is closed first (deliveries waiting in a retry backoff
   * are called off, running ones settle on their own), then the transport. Queued messages are kept
   * unless {@code purge}.
   */
  public synchronized void stop(boolean purge) {
    started = false;
    for (ProviderSubscription subscription : List.copyOf(subscriptions)) {
      subscription.unsubscribe();
    }
    transport.stop(purge);
  }

  public boolean isStarted() {
    return started;
  }

  /** Called by the kernel on registration; warns when one instance is registered twice. */
  void registered() {
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
  public void setRetryPolicy(RetryPolicy policy) {
    this.retryPolicy = policy;
  }

  public Optional<RetryPolicy> retryPolicy() {
    return Optional.ofNullable(retryPolicy);
  }

  /** Archives given-up messages to {@code <topic><suffix>} from now on. */
  public void enableDeadLetterQueue(DeadLetterPolicy policy) {
    deadLetters.enable(policy);
  }

  /** Given-up messages are dropped (and logged) again. */
  public void disableDeadLetterQueue() {
    deadLetters.disable();
  }

  public Optional<DeadLetterPolicy> deadLetterPolicy() {
    return deadLetters.policy();
  }

  /**
   * Where a give-up at {@code address} lands: its dead-letter topic, the address itself at the end
   * of the chain (parked there), or empty when dead-lettering is off.
   */
  public Optional<MailAddress> deadLetterTopic(MailAddress address) {
    return deadLetters.policy().map(policy -> policy.deadLetterTopic(address));
  }

  /**
   * The publish bound of a transport that does not bound its own ({@link PublishWatch}); zero:
   * none. A transport that does ({@code spi.BoundsItsPublish}) keeps its own setting.
   */
  public void setPublishTimeout(Duration timeout) {
    sender.setPublishTimeout(timeout);
  }

  /** The watchdog per delivery attempt; {@link Duration#ZERO} switches it off. */
  public void setDeliverySettleTimeout(Duration timeout) {
    if (timeout == null || timeout.isNegative()) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY, "The delivery settle timeout must be zero or positive.");
    }
    this.deliverySettleTimeout = timeout;
  }

  public Duration deliverySettleTimeout() {
    return deliverySettleTimeout;
  }

  /** What went through each address of this provider since it was made ({@link AddressTraffic}). */
  public List<AddressTraffic> traffic() {
    return traffic.read();
  }

  // ---- capabilities ----------------------------------------------------------------------------

  /** Everything this provider can do now: what its transport implements plus enabled options. */
  public Set<String> supports() {
    return guard.supports();
  }

  public boolean supports(String capability) {
    return guard.supports(capability);
  }

  /** Whether {@code operation} is declared and possible at {@code address}. */
  public boolean can(String operation, MailAddress address) {
    return guard.can(operation, address);
  }

  // ---- operations ------------------------------------------------------------------------------

  /**
   * The send boundary: stamps a fresh copy and hands it to the transport.
   *
   * @return the copy as it was handed over, with its send id
   */
  public MailMessage post(MailMessage message) {
    guard.requireStarted(started);
    guard.requireOwnScheme(message.to());
    PublishOptions.check(message);
    MailMessage stamped = Stamps.atSendBoundary(message, transport.clock().instant());
    sender.send(stamped);
    return stamped;
  }

  /**
   * Posts several messages issued together, in order; returns once every one was handed over (on a
   * durable provider: stored). Every address is checked before anything is sent. A transport that
   * can store them together does so ({@code jdbc:} commits them in shared transactions). Not atomic
   * as a whole: if it throws, messages sent before the failure stay sent, and the exception says so
   * where the transport knows.
   *
   * @return the copies as they were handed over, in the order given
   */
  public List<MailMessage> postAll(List<MailMessage> messages) {
    guard.requireStarted(started);
    messages.forEach(message -> guard.requireOwnScheme(message.to()));
    messages.forEach(PublishOptions::check);
    List<MailMessage> stamped =
        messages.stream()
            .map(message -> Stamps.atSendBoundary(message, transport.clock().instant()))
            .toList();
    sender.sendAll(stamped);
    return stamped;
  }

  /** Registers a push consumer; returns once the transport has established it. */
  public Subscription subscribe(MailAddress address, MailboxSubscriber subscriber) {
    return subscribe(address, subscriber, SubscribeOptions.defaults());
  }

  /** Registers a push consumer with its own options (retry policy). */
  public Subscription subscribe(
      MailAddress address, MailboxSubscriber subscriber, SubscribeOptions options) {
    guard.requireStarted(started);
    guard.requireOwnScheme(address);
    ProviderSubscription subscription =
        new ProviderSubscription(address, subscriber, options, this::closeSubscription);
    subscriptions.add(subscription);
    try {
      subscription.attach(transport.openSubscription(address, subscription));
    } catch (RuntimeException e) {
      subscriptions.remove(subscription);
      throw e;
    }
    return subscription;
  }

  private void closeSubscription(ProviderSubscription subscription) {
    subscriptions.remove(subscription);
    subscription.closeTransportSide();
  }

  /** Fetches queued messages: auto-acknowledged, under a lease (manual ack), or peeked. */
  public List<Delivery> fetch(MailAddress address, FetchOptions options) {
    guard.requireStarted(started);
    guard.requireOwnScheme(address);
    return pull.fetch(address, options);
  }

  /** Runs {@code signal} once {@code address} has a queued copy ({@link SignalsArrivals}). */
  public Runnable onNextArrival(MailAddress address, Runnable signal) {
    guard.requireStarted(started);
    guard.requireOwnScheme(address);
    return pull.onNextArrival(address, signal);
  }

  /**
   * Settles a leased copy by its key and lease id (never by the sender's message id).
   *
   * @return true when it took effect; false, changing nothing, when the lease is unknown, was
   *     reclaimed, belongs to another hand-out, or was already settled
   */
  public boolean settle(MailAddress address, String key, String leaseId, Disposition disposition) {
    guard.requireOwnScheme(address);
    return pull.settle(address, key, leaseId, disposition);
  }

  /** Whether the broker answered lately (its probe's word); DOWN makes the snapshot offline. */
  public Reachability reachability() {
    return transport.reachability();
  }

  /** One address's status, with {@link OldestUnread}; on a stopped provider, what it knows. */
  public AddressStatus status(MailAddress address) {
    return OldestUnread.added(transport, transport.status(address));
  }

  /** Every address this provider knows, or empty when its transport cannot enumerate. */
  public Optional<List<AddressStatus>> enumerate() {
    return transport instanceof Enumerating enumerating
        ? Optional.of(OldestUnread.addedToAll(transport, enumerating.enumerate()))
        : Optional.empty();
  }

  /** Puts expired leases of one address back into its queue. Idempotent. */
  public RecoverResult recover(MailAddress address) {
    guard.requireOwnScheme(address);
    if (!(transport instanceof Recovering recovering)) {
      return RecoverResult.unsupported(scheme());
    }
    long reclaimed = recovering.reclaimExpired(address);
    return new RecoverResult(
        reclaimed, true, reclaimed > 0 ? Map.of(address, reclaimed) : Map.of(), List.of());
  }

  /** Every copy of a sender's message id, wherever it is, with the key to act on it. Read-only. */
  public List<LocatedCopy> locate(String messageId) {
    guard.require(Capabilities.LOCATE);
    return ((Locating) transport).locateCopies(messageId);
  }

  /** Read-only copies of the records parked at {@code address}, oldest first. */
  public List<MailMessage> peekParked(MailAddress address, int limit) {
    guard.requireOwnScheme(address);
    guard.requireAt(Capabilities.PARKED, address);
    return ((ParkedRecords) transport).parkedCopies(address, Math.max(1, limit));
  }

  /** Removes parked records: all of {@code address}, or only the one with copy key {@code key}. */
  public int purgeParked(MailAddress address, String key) {
    guard.requireOwnScheme(address);
    guard.requireAt(key == null ? Capabilities.PARKED : Capabilities.PARKED_REMOVE, address);
    return ((ParkedRecords) transport).removeParked(address, key);
  }

  /**
   * Removes queued copies of {@code address} (never one in flight: it settles on its own): the one
   * with copy key {@code key}, or every queued copy when {@code key} is null; returns how many.
   */
  public int removeQueued(MailAddress address, String key) {
    guard.requireOwnScheme(address);
    guard.requireAt(key == null ? Capabilities.PURGE : Capabilities.REMOVE, address);
    return transport instanceof Removing removing
        ? removing.removeQueuedCopies(address, key)
        : ((Purging) transport).purgeQueued(address);
  }

  /** The copies of {@code address} handed out under a lease and not settled, oldest first. */
  public List<InFlightCopy> inFlight(MailAddress address, int limit) {
    guard.requireOwnScheme(address);
    guard.require(Capabilities.LEASE);
    return ((Leasing) transport).inFlightCopies(address, Math.max(1, limit));
  }

  /** Drops every queued and in-flight message; subscriptions and parked records stay. */
  public long clear() {
    return transport.clearBacklog();
  }

  /** The number of subscriptions currently attached; zero after {@link #stop}. */
  public int subscriptionCount() {
    return subscriptions.size();
  }

  // ---- diagnostics -----------------------------------------------------------------------------

  /**
   * The sizes of this provider's bookkeeping: what must stay flat while traffic flows (the soak
   * command, {@code bin/soak}, watches it). Read-only; each number is read on its own. The kernel
   * reports {@code subscriptions}, {@code deliveryChains} (subscriber deliveries not yet ended,
   * retry backoffs included), {@code broadcastAddresses} and {@code broadcastsInFlight}; the
   * transport adds its own, prefixed with its scheme.
   *
   * @return sizes by name, sorted by name
   */
  public Map<String, Long> bookkeeping() {
    Map<String, Long> sizes = new TreeMap<>();
    sizes.put("subscriptions", (long) subscriptions.size());
    sizes.put(
        "deliveryChains",
        subscriptions.stream().mapToLong(ProviderSubscription::trackedChains).sum());
    sizes.put("broadcastAddresses", broadcasts.addresses());
    sizes.put("broadcastsInFlight", broadcasts.total());
    transport.bookkeeping(sizes);
    return Collections.unmodifiableMap(sizes);
  }
}
