package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.SystemHeaders;
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
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The {@code nats:} provider: NATS JetStream as the transport (docs/providers.md, "nats:").
 *
 * <p>Every address is one subject of one stream ({@link SubjectNames}); a post returns once the
 * stream stored it ({@link NatsPublisher}). An address is read by one durable pull consumer per
 * group, shared by every server, made at its first use and delivering what is stored after it
 * ({@link DurableConsumers}); local subscribers share one reader ({@link SubscriberReaders}),
 * fetches pull what the consumer has now ({@link FetchPullers}), so a subscriber also gets what was
 * stored before it came ({@code subscribers-take-backlog}).
 *
 * <p>Handled = ack, confirmed ({@link Acknowledgements}); unhandled = nak (a subscriber's after the
 * kernel's retry delay, a fetch's at once); discard or {@code natsMaxDeliveries} reached = the dead
 * letter stored first, then {@code term}. The server counts deliveries (the round) and its ack wait
 * is the lease of a consumer that crashed; a fetch's own lease is kept here and kept alive past the
 * ack wait with {@code in-progress}, as are held subscriber deliveries. Peek, removal of what was
 * not delivered yet and parked records work on the stream by sequence ({@link StoredViews}).
 */
public final class NatsProvider extends TransportBase
    implements BoundsItsPublish,
        Recovering,
        Enumerating,
        HandsBacklogToSubscribers,
        Peeking,
        Removing,
        ParkedRecords {
  public static final String SCHEME = "nats";
  private static final Logger LOG = Logger.getLogger(NatsProvider.class.getName());
  private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
  private static final Duration LAST_RETRY_DELAY = Duration.ofSeconds(30);

  private final NatsSettings settings;
  private final SubjectNames names;
  private final NatsLink link;
  private final NatsPublisher publisher;
  private final SubscriberReaders readers;
  private final FetchPullers pullers;
  private final StoredViews views;
  private final NatsStatus statuses;
  private final HeldMessages held = new HeldMessages();
  private final FetchLeases leases;
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final AtomicLong droppedHeaders = new AtomicLong();
  private final Acknowledgements acknowledgements;
  private final PeriodicTask sweeper;

  public NatsProvider(NatsSettings settings, Clock clock, Scheduler scheduler) {
    super(clock, scheduler);
    this.settings = settings;
    this.names = new SubjectNames(settings.subjectPrefix());
    this.link = new NatsLink(settings, names, clock);
    this.publisher =
        new NatsPublisher(
            link::jetStream,
            settings.stream(),
            settings.publishTimeout(),
            settings.deduplicateByMessageId());
    this.acknowledgements = new Acknowledgements();
    this.readers =
        new SubscriberReaders(
            link,
            this::prepare,
            this::bind,
            this::onBatch,
            held::count,
            acknowledgements::confirmBatch);
    this.pullers = new FetchPullers(link, this::prepare, this::bind);
    this.leases = new FetchLeases(held, clock, settings.ackWait());
    this.views = new StoredViews(link, names, settings.stream(), settings.defaultGroup());
    this.statuses = new NatsStatus(link, names, settings.defaultGroup(), views);
    this.sweeper =
        new PeriodicTask(
            "The nats: lease sweep", scheduler, Duration.ofSeconds(1), leases::sweepEverySecond);
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public void start() {
    link.start();
    sweeper.start();
  }

  @Override
  public void stop(boolean purge) {
    sweeper.stop();
    readers.stopAll();
    pullers.closeAll();
    try {
      if (purge) {
        clearBacklog();
      }
    } finally {
      leases.clear();
      held.clear(); // unacknowledged: the server hands them out again after the ack wait
      acknowledgements.clear();
      link.close();
    }
  }

  @Override
  public Reachability reachability() {
    return Reachability.probed(link.reachable());
  }

  // ---- posting ---------------------------------------------------------------------------------

  @Override
  public void send(MailAddress topic, MailMessage copy) {
    publish(List.of(topic), List.of(copy));
  }

  @Override
  public void sendAll(List<MailMessage> copies) {
    publish(copies.stream().map(MailMessage::to).toList(), copies);
  }

  private void publish(List<MailAddress> addresses, List<MailMessage> copies) {
    List<String> subjects = new ArrayList<>(copies.size());
    addresses.forEach(address -> subjects.add(prepare(address)));
    publisher.publishAll(addresses, subjects, copies);
    Instant now = now();
    addresses.forEach(address -> lastActivity.put(address, now));
  }

  private String prepare(MailAddress address) {
    return link.consumers().subjectReady(settings.defaultGroup(), address);
  }

  private PullSubscribeOptions bind(MailAddress address) {
    return link.consumers().bind(settings.defaultGroup(), address);
  }

  // ---- subscriptions ---------------------------------------------------------------------------

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver receiver) {
    prepare(address); // first: a missing stream or an absent server fails before anything is kept
    AutoCloseable handle = readers.add(address, receiver);
    lastActivity.putIfAbsent(address, now());
    return handle;
  }

  /**
   * A reader's batch, each message on its own: a failure here (a dead-letter write refused) naks it
   * after a pause, so the rest goes on and it does not loop hot. Receivers looked up per batch.
   */
  private void onBatch(MailAddress address, List<Message> batch) {
    List<Receiver> receivers = readers.receivers(address);
    lastActivity.put(address, now());
    for (Message message : batch) {
      try {
        receivers = readers.stillActive(address, receivers);
        deliver(address, message, receivers);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Could not hand a message of " + address + " over (back in 1 s)", e);
        held.drop(message);
        message.nakWithDelay(FIRST_RETRY_DELAY);
      }
    }
  }

  private void deliver(MailAddress address, Message message, List<Receiver> receivers) {
    MailMessage copy = read(address, message);
    if (receivers.isEmpty()) {
      message.nak(); // the last subscriber left: for the next consumer
      return;
    }
    held.hold(copy, address, message);
    if (!overDeliveryCap(address, copy)) {
      dispatch(address, copy, receivers);
    }
  }

  /** A held copy whose next hand-out would exceed the cap is given up instead (it acks it). */
  private boolean overDeliveryCap(MailAddress address, MailMessage copy) {
    int deliveredBefore = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 0);
    if (settings.maxDeliveries() == 0 || deliveredBefore < settings.maxDeliveries()) {
      return false;
    }
    giveUpQueued(address, copy, "max-deliveries", deliveredBefore);
    return true;
  }

  private MailMessage read(MailAddress address, Message message) {
    NatsMessages.Received received = NatsMessages.readSafely(address, message);
    if (received.droppedHeaders() > 0) { // a shared counter: not touched for every message
      droppedHeaders.addAndGet(received.droppedHeaders());
    }
    return received.copy();
  }

  // ---- fetch and leases ------------------------------------------------------------------------

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    prepare(address);
    if (lease != null) {
      reclaimExpired(address);
    }
    List<MailMessage> taken = new ArrayList<>();
    for (Message message : pullers.take(address, limit)) {
      MailMessage copy = read(address, message);
      if (lease != null) {
        held.hold(copy, address, message);
        if (overDeliveryCap(address, copy)) {
          continue;
        }
        held.release(copy);
      } else {
        acknowledgements.acked(address, message); // auto-ack: settled at once
      }
      MailMessage handedOut = handOut.apply(copy);
      if (lease != null) {
        leases.put(address, lease, handedOut, message);
      }
      taken.add(handedOut);
    }
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
    held.release(copy).ifPresent(m -> acknowledgements.acked(topic, m));
  }

  /** Given up: the server stops redelivering it ({@code term}). */
  @Override
  public void abandon(MailAddress address, MailMessage copy) {
    held.release(copy).ifPresent(m -> acknowledgements.terminated(address, m));
  }

  /**
   * The replacement (dead-letter record or parked copy) is stored first, then the source is
   * terminated: a crash in between duplicates the record at worst. If the replacement cannot be
   * stored, the source is nak'ed and handed out again.
   */
  @Override
  public void replaceGivenUp(MailAddress topic, MailMessage copy, Runnable storeReplacement) {
    try {
      storeReplacement.run();
    } catch (RuntimeException e) {
      held.release(copy).ifPresent(Message::nak);
      throw e;
    }
    abandon(topic, copy);
  }

  /** Nak: a subscriber's copy after the retry delay of its round, a fetcher's at once. */
  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    Optional<Message> held = this.held.release(copy);
    if (held.isEmpty()) {
      return false;
    }
    Message message = held.get();
    if (readers.receivers(address).isEmpty()) {
      message.nak();
    } else {
      int round = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1);
      message.nakWithDelay(Backoff.after(round, FIRST_RETRY_DELAY, LAST_RETRY_DELAY));
    }
    return true;
  }

  /** The end of a dead-letter chain: stored under {@code <subject>.parked}, never read back. */
  @Override
  public void park(MailAddress address, MailMessage record) {
    link.ensureStream();
    publisher.publishAll(List.of(address), List.of(names.parkedSubject(address)), List.of(record));
    LOG.warning(() -> "Parked " + record + " in NATS subject " + names.parkedSubject(address));
  }

  @Override
  public List<MailMessage> peekQueued(MailAddress address, int limit) {
    return views.peek(address, limit);
  }

  @Override
  public int removeQueuedCopies(MailAddress address, String key) {
    return views.removeQueued(address, key);
  }

  @Override
  public List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return views.parked(address, limit);
  }

  @Override
  public int removeParked(MailAddress address, String key) {
    return views.removeParked(address, key);
  }

  /** Deletes the stored messages of every address this provider used; returns how many went. */
  @Override
  public long clearBacklog() {
    long dropped = known().stream().mapToLong(a -> link.purge(names.subject(a))).sum();
    leases.terminateAll();
    return dropped;
  }

  // ---- status ----------------------------------------------------------------------------------

  @Override
  public AddressStatus status(MailAddress address) {
    return statuses.of(
        address,
        leases.census(address),
        held.count(address),
        acknowledgements.unconfirmed(address),
        broadcastsInFlight(address),
        readers.receivers(address).size(),
        droppedHeaders.get(),
        lastActivity.get(address));
  }

  /** The provider's consumers (any server's) and the addresses used here. */
  @Override
  public List<AddressStatus> enumerate() {
    Set<MailAddress> listed = new TreeSet<>(known());
    if (link.reachable()) {
      listed.addAll(link.consumers().ownedAddresses());
    }
    return listed.stream().map(this::status).toList();
  }

  private Set<MailAddress> known() {
    Set<MailAddress> known = new TreeSet<>(lastActivity.keySet());
    known.addAll(readers.addresses());
    return known;
  }

  @Override
  public void bookkeeping(Map<String, Long> sizes) {
    sizes.put(SCHEME + ".held", (long) held.size());
    sizes.put(SCHEME + ".lastActivity", (long) lastActivity.size());
  }
}
