package io.mailbox.connector.provider.mem;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.BoundsItsPublish;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.KeepsBatchOrder;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.Locating;
import io.mailbox.connector.spi.ParkedRecords;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.PeriodicTask;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Removing;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.SignalsArrivals;
import io.mailbox.connector.spi.TransportBase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The {@code mem:} provider: a broker simulated in this JVM's memory ({@link MemoryBus}). It
 * supports everything the kernel knows: peek, leases with lazy reclaim, recover, an opt-in lease
 * sweeper, locate, parking, and (opt-in) retries and dead letters from the base class.
 *
 * <p>Status extension keys: {@code mem.overdueInFlightCount} (in flight, lease expired, not yet
 * reclaimed: alert on this, not on in-flight), {@code mem.oldestOverdueMs}, {@code
 * mem.parkedCount}, {@code mem.subscriberCount}, {@code mem.oldestUnreadMs} (from the head of the
 * queue's {@code mbx-sent-at}).
 */
public final class MemoryProvider extends TransportBase
    implements BoundsItsPublish,
        KeepsBatchOrder,
        Peeking,
        Recovering,
        Enumerating,
        Locating,
        ParkedRecords,
        Removing,
        SignalsArrivals {
  public static final String SCHEME = "mem";

  private static final ExecutorScheduler DEFAULT_SCHEDULER = new ExecutorScheduler();

  private final MemoryBus bus;
  private final PeriodicTask sweeper; // null when off

  /**
   * @param bus where the queues live
   * @param leaseSweepInterval how often expired leases are reclaimed on a clock; {@link
   *     Duration#ZERO} (the default) leaves reclaiming to the next manual-ack fetch and {@code
   *     recover()}
   */
  public MemoryProvider(
      MemoryBus bus, Clock clock, Scheduler scheduler, Duration leaseSweepInterval) {
    super(clock, scheduler);
    if (leaseSweepInterval == null || leaseSweepInterval.isNegative()) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY, "The lease sweep interval must be zero (off) or positive.");
    }
    this.bus = bus;
    this.sweeper =
        leaseSweepInterval.isZero()
            ? null
            : new PeriodicTask(
                "The mem: lease sweep",
                scheduler,
                leaseSweepInterval,
                () -> bus.topics().forEach(entry -> reclaimExpired(entry.getValue())));
  }

  /** On the process-wide shared bus. */
  public MemoryProvider() {
    this(MemoryBus.shared(), Clock.systemUTC(), DEFAULT_SCHEDULER, Duration.ZERO);
  }

  /** On a private bus nobody else can see. */
  public static MemoryProvider isolated() {
    return new MemoryProvider(
        MemoryBus.isolated(), Clock.systemUTC(), DEFAULT_SCHEDULER, Duration.ZERO);
  }

  /** On the bus of a named scope: shared within it, invisible across scopes. */
  public static MemoryProvider forScope(String scope) {
    return new MemoryProvider(
        MemoryBus.scope(scope), Clock.systemUTC(), DEFAULT_SCHEDULER, Duration.ZERO);
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  public MemoryBus bus() {
    return bus;
  }

  @Override
  public void start() {
    if (sweeper != null) {
      sweeper.start();
    }
  }

  @Override
  public void stop(boolean purge) {
    if (sweeper != null) {
      sweeper.stop();
    }
    if (purge) {
      clearBacklog();
    }
  }

  @Override
  public void send(MailAddress topic, MailMessage copy) {
    MemoryTopic queue = bus.topic(topic);
    List<Receiver> receivers = queue.receiversOrEnqueue(copy, now());
    if (receivers.isEmpty()) {
      signalArrival(queue);
    } else {
      dispatch(topic, copy, receivers);
    }
  }

  @Override
  public Runnable onNextArrival(MailAddress address, Runnable signal) {
    MemoryTopic topic = bus.topic(address);
    return topic.arrivals().await(topic::queuedForAWaitingConsumer, signal);
  }

  /** Gives the signals waiting at {@code topic}, outside its monitor, when a copy is queued. */
  private static void signalArrival(MemoryTopic topic) {
    topic.arrivals().queued(topic::hasQueued);
  }

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver subscription) {
    MemoryTopic topic = bus.topic(address);
    topic.subscribe(subscription);
    return () -> topic.unsubscribe(subscription);
  }

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    return takeFrom(address, topic -> topic.take(limit, lease, handOut, now()));
  }

  @Override
  public List<LeasedCopy> takeLeased(
      MailAddress address, int limit, Supplier<Lease> leases, UnaryOperator<MailMessage> handOut) {
    return takeFrom(address, topic -> topic.takeLeased(limit, leases, handOut, now()));
  }

  /** A take at an address's topic, if it has one; then the signals for what is still queued. */
  private <T> List<T> takeFrom(MailAddress address, Function<MemoryTopic, List<T>> take) {
    MemoryTopic topic = bus.existing(address).orElse(null);
    if (topic == null) {
      return List.of();
    }
    List<T> taken = take.apply(topic);
    signalArrival(topic); // what its lazy reclaim queued again and it left
    return taken;
  }

  @Override
  public List<MailMessage> peekQueued(MailAddress address, int limit) {
    return bus.existing(address).map(topic -> topic.peek(limit)).orElse(List.of());
  }

  @Override
  public Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
    return bus.existing(address).flatMap(topic -> topic.release(key, leaseId));
  }

  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    MemoryTopic topic = bus.topic(address);
    boolean queued = topic.requeue(copy);
    signalArrival(topic);
    return queued;
  }

  @Override
  public void park(MailAddress address, MailMessage record) {
    bus.topic(address).park(record);
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    return bus.existing(address).map(this::reclaimExpired).orElse(0L);
  }

  private long reclaimExpired(MemoryTopic topic) {
    long reclaimed = topic.reclaimExpired(now());
    signalArrival(topic);
    return reclaimed;
  }

  @Override
  public List<LocatedCopy> locateCopies(String messageId) {
    return bus.topics().stream()
        .sorted(Map.Entry.comparingByKey())
        .flatMap(entry -> entry.getValue().locate(messageId).stream())
        .toList();
  }

  @Override
  public List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return bus.existing(address).map(topic -> topic.parked(limit)).orElse(List.of());
  }

  @Override
  public int removeParked(MailAddress address, String key) {
    return bus.existing(address).map(topic -> topic.removeParked(key)).orElse(0);
  }

  @Override
  public List<io.mailbox.connector.api.InFlightCopy> inFlightCopies(
      MailAddress address, int limit) {
    return bus.existing(address).map(topic -> topic.inFlight(limit)).orElse(List.of());
  }

  @Override
  public int removeQueuedCopies(MailAddress address, String key) {
    return bus.existing(address).map(topic -> topic.removeQueued(key)).orElse(0);
  }

  @Override
  public long clearBacklog() {
    return bus.topics().stream().mapToLong(entry -> entry.getValue().clearBacklog()).sum();
  }

  @Override
  public AddressStatus status(MailAddress address) {
    return bus.existing(address)
        .map(topic -> statusOf(address, topic))
        .orElseGet(() -> AddressStatus.unknown(address));
  }

  @Override
  public List<AddressStatus> enumerate() {
    return bus.topics().stream() // in address order already
        .map(entry -> statusOf(entry.getKey(), entry.getValue()))
        .toList();
  }

  /**
   * {@code mem.topics} (addresses on the bus, never removed), and over all of them {@code
   * mem.queued}, {@code mem.leases} (the lease table: copies in flight under a lease), {@code
   * mem.parked} and {@code mem.subscribers}.
   */
  @Override
  public void bookkeeping(Map<String, Long> sizes) {
    long queued = 0;
    long leases = 0;
    long parked = 0;
    long subscribers = 0;
    List<Map.Entry<MailAddress, MemoryTopic>> topics = bus.topics();
    for (Map.Entry<MailAddress, MemoryTopic> entry : topics) {
      MemoryTopic.Counts counts = entry.getValue().counts(now());
      queued += counts.unread();
      leases += counts.inFlight();
      parked += counts.parked();
      subscribers += counts.subscribers();
    }
    sizes.put(SCHEME + ".topics", (long) topics.size());
    sizes.put(SCHEME + ".queued", queued);
    sizes.put(SCHEME + ".leases", leases);
    sizes.put(SCHEME + ".parked", parked);
    sizes.put(SCHEME + ".subscribers", subscribers);
  }

  private AddressStatus statusOf(MailAddress address, MemoryTopic topic) {
    Instant now = now();
    MemoryTopic.Counts counts = topic.counts(now);
    if (!counts.known()) {
      return AddressStatus.unknown(address);
    }
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".overdueInFlightCount", counts.overdue());
    extensions.put(SCHEME + ".oldestOverdueMs", counts.oldestOverdue().toMillis());
    extensions.put(SCHEME + ".parkedCount", counts.parked());
    extensions.put(SCHEME + ".subscriberCount", counts.subscribers());
    if (counts.unread() == 0 || counts.headSentAt() != null) {
      extensions.put(
          SCHEME + ".oldestUnreadMs",
          counts.unread() == 0
              ? 0L
              : Math.max(0, Duration.between(counts.headSentAt(), now).toMillis()));
    }
    return new AddressStatus(
        address,
        AddressState.ONLINE,
        true,
        counts.unread(),
        counts.inFlight() + broadcastsInFlight(address),
        counts.lastActivity(),
        extensions);
  }
}
