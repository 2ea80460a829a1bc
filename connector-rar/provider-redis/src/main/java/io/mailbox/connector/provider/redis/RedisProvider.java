package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.provider.redis.HeldEntries.Held;
import io.mailbox.connector.spi.Backoff;
import io.mailbox.connector.spi.BoundsItsPublish;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.ParkedRecords;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.PeriodicTask;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Removing;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.TransportBase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The {@code redis:} provider: Redis Streams as the transport (docs/providers.md, "redis:").
 *
 * <p>Every address is one stream ({@link StreamKeys}), read by one consumer group shared by every
 * server ({@link ConsumerGroups}); a post returns once its XADD was answered ({@link
 * RedisPublisher}). Local subscribers share one blocking reader ({@link StreamReaders}), fetches
 * read without waiting ({@link GroupReads}); both also take back entries idle past the lease (a
 * crashed process's, or ones handed back), so a subscriber gets what was stored before it came.
 *
 * <p>Handled = XACK ({@link Acknowledgements}); unhandled = left pending and handed out again after
 * the kernel's retry delay (a fetch's at once); discard or {@code redisMaxDeliveries} reached = the
 * dead letter stored first in {@code <stream>.dead.<group>}, then XACK. Redis counts deliveries
 * (the round). Leases of fetches are kept here; entries held or leased here are touched so others
 * do not reclaim them. Declared: lease, recover, peek, remove (of queued entries only, {@link
 * StreamRemovals}), parked records, enumerate. Not declared: locate (Redis can only find an entry
 * by its id, not by a message id).
 */
public final class RedisProvider extends TransportBase
    implements BoundsItsPublish,
        Recovering,
        Enumerating,
        HandsBacklogToSubscribers,
        Peeking,
        Removing,
        ParkedRecords {
  public static final String SCHEME = "redis";
  private static final Logger LOG = Logger.getLogger(RedisProvider.class.getName());
  private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
  private static final Duration LAST_RETRY_DELAY = Duration.ofSeconds(30);

  private final RedisSettings settings;
  private final StreamKeys keys;
  private final RedisLink link;
  private final ConsumerGroups groups;
  private final GroupReads reads;
  private final RedisPublisher publisher;
  private final StreamReaders readers;
  private final StreamViews views;
  private final StreamRemovals removals;
  private final RedisStatus statuses;
  private final FetchLeases leases;
  private final HeldEntries held = new HeldEntries();
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final Admission admission;
  private final Acknowledgements acknowledgements;
  private final Upkeep upkeep;
  private final PeriodicTask sweeper;

  public RedisProvider(RedisSettings settings, Clock clock, Scheduler scheduler) {
    super(clock, scheduler);
    this.settings = settings;
    this.keys =
        new StreamKeys(
            settings.keyPrefix(),
            settings.defaultGroup(),
            this::deadLetterSource,
            this::deadLetterTopic);
    this.link = new RedisLink(settings, clock);
    this.groups = new ConsumerGroups(link, settings.defaultGroup());
    long lease = settings.lease().toMillis();
    this.reads = new GroupReads(link, groups, lease, held::contains);
    this.publisher =
        new RedisPublisher(link, groups, keys, settings.publishTimeout(), settings.maxLength());
    this.acknowledgements = new Acknowledgements(reads);
    this.readers =
        new StreamReaders(
            link,
            reads,
            keys::stream,
            (int) settings.blockTime().toMillis(),
            this::onBatch,
            this::unsettled,
            acknowledgements::inBatch);
    this.admission = new Admission(held, settings.maxDeliveries(), this::giveUpQueued);
    this.leases = new FetchLeases(held, reads, admission, clock);
    this.views = new StreamViews(link, groups, keys, lease, held::contains);
    this.removals = new StreamRemovals(link, groups, keys, views, lease);
    this.statuses = new RedisStatus(link, keys, groups, views);
    this.upkeep =
        new Upkeep(
            leases,
            held,
            reads,
            groups,
            () -> readers.addresses().stream().map(keys::stream).collect(Collectors.toSet()),
            settings.lease());
    this.sweeper = new PeriodicTask("The redis: sweep", scheduler, Duration.ofSeconds(1), upkeep);
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public void start() {
    groups.restart();
    link.start();
    sweeper.start();
  }

  /** Entries still held or leased go back at once: another process can take them now. */
  @Override
  public void stop(boolean purge) {
    sweeper.stop();
    readers.stopAll();
    try {
      if (purge) {
        clearBacklog();
      } else {
        upkeep.handBackAll();
      }
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "Could not hand entries back at stop (reclaimed after the lease)", e);
    } finally {
      leases.clear();
      held.clear();
      acknowledgements.clear();
      link.close();
    }
  }

  @Override
  public Reachability reachability() {
    return Reachability.probed(link.reachable());
  }

  // ---- posting ---------------------------------------------------------------------------------

  /** A record sent to another address than its own is a dead letter: it names its source. */
  @Override
  public void send(MailAddress topic, MailMessage copy) {
    publisher.send(topic, copy);
    lastActivity.put(topic, now());
  }

  @Override
  public void sendAll(List<MailMessage> copies) {
    publisher.sendAll(copies);
    Instant now = now();
    copies.stream().map(MailMessage::to).distinct().forEach(to -> lastActivity.put(to, now));
  }

  // ---- subscriptions ---------------------------------------------------------------------------

  /** Closing the last subscription of an address deletes this process's consumer if it is idle. */
  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver receiver) {
    String key = keys.stream(address);
    groups.ensure(key); // first: an absent server fails before anything is kept
    AutoCloseable handle = readers.add(address, receiver);
    lastActivity.putIfAbsent(address, now());
    return () -> {
      handle.close();
      if (readers.receivers(address).isEmpty() && unsettled(address) == 0) {
        groups.deleteOwnIfIdle(key);
      }
    };
  }

  /**
   * A reader's batch: the receivers and the time are looked up once, and again only when one of
   * them left meanwhile (nothing goes to a subscriber after its unsubscribe).
   */
  private void onBatch(MailAddress address, List<GroupReads.Taken> batch) {
    String key = keys.stream(address);
    List<Receiver> receivers = readers.receivers(address);
    lastActivity.put(address, now());
    for (GroupReads.Taken taken : batch) {
      try {
        receivers = readers.stillActive(address, receivers);
        deliver(address, key, taken, receivers);
      } catch (RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "Could not hand an entry of " + address + " over; it comes back in 1 s",
            e);
        held.drop(key, taken.entry().getID());
        reads.requeue(key, taken.entry().getID(), FIRST_RETRY_DELAY.toMillis());
      }
    }
  }

  private void deliver(
      MailAddress address, String key, GroupReads.Taken taken, List<Receiver> receivers) {
    if (receivers.isEmpty()) {
      reads.requeue(key, taken.entry().getID(), 0); // the last subscriber left: for the next
      return;
    }
    admission.admit(address, key, taken).ifPresent(c -> dispatch(address, c, receivers));
  }

  private long unsettled(MailAddress address) {
    return held.count(address) + acknowledgements.unsent(address);
  }

  // ---- fetch and leases ------------------------------------------------------------------------

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    String key = keys.stream(address);
    groups.ensure(key);
    if (lease != null) {
      reclaimExpired(address);
    }
    List<MailMessage> taken = leases.take(address, key, limit, lease, handOut);
    if (!taken.isEmpty()) {
      lastActivity.put(address, now());
    }
    return taken;
  }

  @Override
  public Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
    return leases.release(address, key, leaseId);
  }

  @Override
  public List<InFlightCopy> inFlightCopies(MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    return leases.reclaimExpired(address);
  }

  // ---- settlement ------------------------------------------------------------------------------

  @Override
  public void acknowledge(MailAddress topic, MailMessage copy) {
    held.release(copy).ifPresent(h -> acknowledgements.ack(h.address(), h.key(), h.id()));
  }

  /** Given up: removed from the group's pending entries. */
  @Override
  public void abandon(MailAddress address, MailMessage copy) {
    acknowledge(address, copy);
  }

  /**
   * The replacement (dead letter or parked record) is stored first, then the source is
   * acknowledged: a crash in between duplicates the record at worst. If the replacement cannot be
   * stored, the source stays pending and comes back after the first retry delay.
   */
  @Override
  public void replaceGivenUp(MailAddress topic, MailMessage copy, Runnable storeReplacement) {
    try {
      storeReplacement.run();
    } catch (RuntimeException e) {
      held.release(copy)
          .ifPresent(h -> reads.requeue(h.key(), h.id(), FIRST_RETRY_DELAY.toMillis()));
      throw e;
    }
    abandon(topic, copy);
  }

  /** Handed back: a subscriber's after the retry delay of its round, a fetcher's at once. */
  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    Optional<Held> released = held.release(copy);
    if (released.isEmpty()) {
      return false;
    }
    long delay = 0;
    if (!readers.receivers(address).isEmpty()) {
      int round = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1);
      delay = Backoff.after(round, FIRST_RETRY_DELAY, LAST_RETRY_DELAY).toMillis();
    }
    reads.requeue(released.get().key(), released.get().id(), delay);
    return true;
  }

  /** The end of a dead-letter chain: stored in {@code <stream>.parked}, never handed out. */
  @Override
  public void park(MailAddress address, MailMessage record) {
    views.park(keys.parked(address), StreamEntries.fields(record, false));
    LOG.warning(() -> "Parked " + record + " in Redis stream " + keys.parked(address));
  }

  @Override
  public List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return views.parked(address, limit);
  }

  @Override
  public int removeParked(MailAddress address, String key) {
    return views.removeParked(address, key);
  }

  @Override
  public List<MailMessage> peekQueued(MailAddress address, int limit) {
    return views.peek(address, limit);
  }

  @Override
  public int removeQueuedCopies(MailAddress address, String key) {
    return removals.remove(address, key);
  }

  /** Deletes the streams of every address this provider used; returns how many entries went. */
  @Override
  public long clearBacklog() {
    long dropped = 0;
    for (MailAddress address : usedHere()) {
      String key = keys.stream(address);
      dropped += views.delete(key);
      groups.forget(key);
    }
    leases.clear();
    held.clear();
    return dropped;
  }

  // ---- status ----------------------------------------------------------------------------------

  @Override
  public AddressStatus status(MailAddress address) {
    RedisStatus.Here here =
        new RedisStatus.Here(
            leases.census(address),
            held.count(address),
            acknowledgements.unsent(address),
            broadcastsInFlight(address),
            readers.receivers(address).size(),
            admission.droppedFields(),
            lastActivity.get(address));
    return statuses.of(address, here);
  }

  /** The provider's streams in Redis (any server's) and the addresses used here. */
  @Override
  public List<AddressStatus> enumerate() {
    return statuses.listed(usedHere()).stream().map(this::status).toList();
  }

  private Set<MailAddress> usedHere() {
    Set<MailAddress> used = new TreeSet<>(lastActivity.keySet());
    used.addAll(readers.addresses());
    return used;
  }

  @Override
  public void bookkeeping(Map<String, Long> sizes) {
    sizes.put(SCHEME + ".held", (long) held.size());
    sizes.put(SCHEME + ".lastActivity", (long) lastActivity.size());
  }
}
