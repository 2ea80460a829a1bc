package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Backoff;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.mailbox.connector.spi.PeriodicTask;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Recovering;
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
import java.util.logging.Logger;

/**
 * The {@code nats:} provider: NATS JetStream as the transport (docs/providers.md, "nats:").
 *
 * <p><b>Mapping.</b> Every address is one subject in one stream ({@link SubjectNames}); a post is
 * published through JetStream and returns once the stream stored it. An address is read by one
 * durable pull consumer per group ({@code natsDefaultGroup}), shared by every server, created at
 * the address's first use (post, subscription or fetch) and delivering what is stored after it.
 * Local subscribers share one reader ({@link SubscriberReaders}); fetches pull what the consumer
 * has now ({@link FetchPullers}). Because every message goes through the consumer, a subscriber is
 * also handed what was stored before it subscribed ({@code subscribers-take-backlog}).
 *
 * <p><b>Dispositions.</b> Handled = ack. Unhandled = nak: for push consumers with the kernel's
 * retry delay (1 s doubling to 30 s), for fetches at once. Discard, a fatal failure or {@code
 * natsMaxDeliveries} reached: the dead-letter record is published (stored) first, then the source
 * is terminated ({@code term}); a failed write naks the source instead. The server counts
 * deliveries, which become the round, so they survive a crash.
 *
 * <p><b>Leases.</b> The server's ack wait ({@code natsAckWaitMillis}) is the lease of a consumer
 * that crashed: its messages come back after it. A fetch's own lease is kept here; an expired one
 * is nak'ed (handed out again at once); a lease longer than the ack wait is kept alive with {@code
 * in-progress} signals.
 *
 * <p><b>Not declared</b>: peek, locate, remove (JetStream can delete a stored message by sequence,
 * but not one consumer's view of it), parked records through the API (they go to {@code
 * <subject>.parked}).
 */
public final class NatsProvider extends TransportBase
    implements Recovering, Enumerating, HandsBacklogToSubscribers {
  public static final String SCHEME = "nats";
  private static final Logger LOG = Logger.getLogger(NatsProvider.class.getName());
  private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
  private static final Duration LAST_RETRY_DELAY = Duration.ofSeconds(30);
  private static final Duration CONFIRM_BOUND = Duration.ofSeconds(5);

  private final NatsSettings settings;
  private final SubjectNames names;
  private final NatsLink link;
  private final NatsPublisher publisher;
  private final SubscriberReaders readers;
  private final FetchPullers pullers;
  private final Map<String, Held> held = new ConcurrentHashMap<>(); // by send id
  private final LeaseTable<Message> leases = new LeaseTable<>();
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final Map<MailAddress, String> prepared = new ConcurrentHashMap<>();
  private final AtomicLong droppedHeaders = new AtomicLong();
  private final AtomicLong unconfirmed = new AtomicLong(); // acknowledged, not confirmed yet
  private static final ThreadLocal<Boolean> IN_BATCH = ThreadLocal.withInitial(() -> false);
  private final PeriodicTask sweeper;
  private long sweeps;

  /** A delivered message not settled yet, and its address. */
  private record Held(MailAddress address, Message message) {}

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
    this.readers =
        new SubscriberReaders(
            link, this::prepare, this::bind, this::onDelivery, this::heldHere, this::confirmBatch);
    this.pullers = new FetchPullers(link, this::prepare, this::bind);
    this.sweeper =
        new PeriodicTask("The nats: lease sweep", scheduler, Duration.ofSeconds(1), this::sweep);
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
    if (purge) {
      clearBacklog();
    }
    leases.clear();
    held.clear(); // unacknowledged: the server hands them out again after the ack wait
    prepared.clear();
    link.close();
  }

  @Override
  public boolean reachable() {
    return link.reachable();
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

  /**
   * The subject of {@code address}, its stream and durable consumer made sure of (once per address
   * while connected: the link forgets them when it closes, and this cache goes with the provider).
   */
  private String prepare(MailAddress address) {
    String known = prepared.get(address);
    if (known != null) {
      return known;
    }
    String subject = names.subject(address);
    link.ensureConsumer(settings.defaultGroup(), address);
    prepared.put(address, subject);
    return subject;
  }

  private PullSubscribeOptions bind(MailAddress address) {
    return PullSubscribeOptions.bind(
        settings.stream(), names.consumer(settings.defaultGroup(), address));
  }

  // ---- subscriptions ---------------------------------------------------------------------------

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver receiver) {
    prepare(address); // first: a missing stream or an absent server fails before anything is kept
    AutoCloseable handle = readers.add(address, receiver);
    lastActivity.putIfAbsent(address, now());
    return handle;
  }

  private void onDelivery(MailAddress address, Message message) {
    MailMessage copy = read(address, message);
    List<Receiver> receivers = readers.receivers(address);
    if (receivers.isEmpty()) {
      message.nak(); // the last subscriber left: for the next consumer
      return;
    }
    held.put(copy.sendId().orElseThrow(), new Held(address, message));
    lastActivity.put(address, now());
    if (!overDeliveryCap(address, copy)) {
      dispatch(address, copy, receivers);
    }
  }

  private MailMessage read(MailAddress address, Message message) {
    NatsMessages.Received received = NatsMessages.readSafely(address, message);
    if (received.droppedHeaders() > 0) {
      droppedHeaders.addAndGet(received.droppedHeaders());
    }
    return received.copy();
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

  private long heldHere(MailAddress address) {
    return held.values().stream().filter(h -> h.address().equals(address)).count();
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
      String key = copy.sendId().orElseThrow();
      if (lease != null) {
        held.put(key, new Held(address, message));
        if (overDeliveryCap(address, copy)) {
          continue;
        }
        held.remove(key);
      } else {
        confirmed(message, Message::ack); // an auto-ack fetch settles at once
      }
      MailMessage handedOut = handOut.apply(copy);
      if (lease != null) {
        leases.put(key, address, lease, handedOut, message);
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
    Optional<LeaseTable.Leased<Message>> released = leases.release(address, key, leaseId);
    if (released.isEmpty()) {
      return Optional.empty();
    }
    LeaseTable.Leased<Message> leased = released.get();
    if (leased.lease().isExpiredAt(now())) {
      leased.handle().nak(); // too late: the lease is over, the message goes to the next fetch
      return Optional.empty();
    }
    held.put(key, new Held(address, leased.handle()));
    return Optional.of(leased.copy());
  }

  @Override
  public List<InFlightCopy> inFlightCopies(MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    List<LeaseTable.Leased<Message>> expired = leases.takeExpired(address, now());
    expired.forEach(leased -> leased.handle().nak());
    return expired.size();
  }

  /**
   * Every second: expired leases go back; every third of the ack wait, leased messages are marked
   * in progress, so the server does not hand out what a fetcher still holds under a longer lease.
   */
  private void sweep() {
    leases.addresses().forEach(this::reclaimExpired);
    long everySweeps = Math.max(1, settings.ackWait().toSeconds() / 3);
    if (++sweeps % everySweeps == 0) {
      for (MailAddress address : leases.addresses()) {
        leases.entries(address).forEach(leased -> leased.handle().inProgress());
      }
    }
  }

  // ---- settlement ------------------------------------------------------------------------------

  /**
   * Sends an acknowledgement and makes sure the server has it before the status could show the
   * message as unread again: on a subscriber reader's thread, inside a batch, it is counted as
   * unconfirmed and the reader confirms the whole batch with one round trip ({@link
   * #confirmBatch}); anywhere else it waits (bounded) for its own round trip. One that does not
   * arrive in time is logged; the server hands the message out again after its ack wait.
   */
  private void confirmed(Message message, java.util.function.Consumer<Message> acknowledgement) {
    if (IN_BATCH.get()) {
      unconfirmed.incrementAndGet();
      acknowledgement.accept(message);
      return;
    }
    acknowledgement.accept(message);
    flush(message.getConnection());
  }

  /** Runs a reader's batch of deliveries, then confirms their acknowledgements at once. */
  private void confirmBatch(Runnable batch) {
    IN_BATCH.set(true);
    try {
      batch.run();
    } finally {
      IN_BATCH.set(false);
      long sent = unconfirmed.get();
      if (sent > 0) {
        flush(link.connection());
        unconfirmed.addAndGet(-sent);
      }
    }
  }

  private static void flush(io.nats.client.Connection connection) {
    try {
      connection.flush(CONFIRM_BOUND);
    } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
      LOG.fine(() -> "NATS did not confirm acknowledgements in time (redelivered later)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void acknowledge(MailAddress topic, MailMessage copy) {
    Held message = held.remove(copy.sendId().orElseThrow());
    if (message != null) {
      confirmed(message.message(), Message::ack);
    }
  }

  /** Given up: the server stops redelivering it ({@code term}). */
  @Override
  public void abandon(MailAddress address, MailMessage copy) {
    Held message = held.remove(copy.sendId().orElseThrow());
    if (message != null) {
      confirmed(message.message(), Message::term);
    }
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
      Held message = held.remove(copy.sendId().orElseThrow());
      if (message != null) {
        message.message().nak();
      }
      throw e;
    }
    abandon(topic, copy);
  }

  /** Nak: a subscriber's copy after the retry delay of its round, a fetcher's at once. */
  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    Held message = held.remove(copy.sendId().orElseThrow());
    if (message == null) {
      return false;
    }
    if (readers.receivers(address).isEmpty()) {
      message.message().nak();
    } else {
      int round = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1);
      message.message().nakWithDelay(Backoff.after(round, FIRST_RETRY_DELAY, LAST_RETRY_DELAY));
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

  /** Deletes the stored messages of every address this provider used; returns how many went. */
  @Override
  public long clearBacklog() {
    long dropped = 0;
    for (MailAddress address : known()) {
      dropped += link.purge(names.subject(address));
    }
    for (LeaseTable.Leased<Message> leased : leases.takeAll()) {
      leased.handle().term();
    }
    return dropped;
  }

  // ---- status ----------------------------------------------------------------------------------

  @Override
  public AddressStatus status(MailAddress address) {
    return new NatsStatus(link, names, settings.defaultGroup())
        .of(
            address,
            leases.census(address, now()),
            heldHere(address),
            unconfirmed.get(),
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
      listed.addAll(link.ownedAddresses());
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
