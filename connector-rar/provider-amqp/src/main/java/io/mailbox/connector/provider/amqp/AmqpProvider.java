package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.provider.amqp.HeldDeliveries.Held;
import io.mailbox.connector.spi.BoundsItsPublish;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
import io.mailbox.connector.spi.KeepsBatchOrder;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.mailbox.connector.spi.NarrowsCapabilities;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;

/**
 * The {@code amqp:} provider: RabbitMQ as the transport.
 *
 * <p><b>Mapping.</b> Every address is one durable quorum queue named by its mailbox ({@link
 * QueueNames}). A post is published persistent and mandatory to that queue through the default
 * exchange and returns once RabbitMQ confirmed it. Subscribers of an address in this process share
 * one broker consumer (manual acks, a prefetch window); each delivery goes to every local
 * subscriber through the kernel's broadcast settlement. Consumers on other servers compete for the
 * queue's messages, as RabbitMQ consumers do, and a subscriber is handed what was queued before it
 * came ({@code subscribers-take-backlog}).
 *
 * <p><b>Dispositions.</b> Handled = ack. Unhandled = for push consumers a delayed retry: the copy
 * is published to {@code <queue>.retry.<delay>ms} (a quorum queue whose message TTL dead-letters it
 * back, at least once) and the original acked only after that publish was confirmed; for fetch
 * consumers, and with no delays configured, a requeue in place (nack). Discard, a spent delivery
 * cap and a fatal failure: the dead-letter record is published (confirmed) first, then the original
 * acked. RabbitMQ counts redeliveries ({@code x-delivery-count}): rounds survive lost links.
 *
 * <p><b>Leases</b> ({@link LeasedFetches}): RabbitMQ's {@code consumer_timeout} (30 min by default)
 * closes a channel holding a delivery longer than that, so longer leases are not kept.
 *
 * <p><b>Batches</b> keep their order ({@code ordered-batch}): one channel publishes them in order;
 * RabbitMQ nacks only on an internal error of the queue, which fails its later messages too.
 *
 * <p><b>Looking</b> ({@link QueueBrowser}): peek and remove one at dead-letter addresses, parked
 * records everywhere (queues nobody consumes, declared with a delivery limit looks cannot reach; a
 * look into a live queue counts as a delivery); a purge anywhere. Not declared: locate.
 */
public final class AmqpProvider extends TransportBase
    implements BoundsItsPublish,
        KeepsBatchOrder,
        Recovering,
        Enumerating,
        Peeking,
        Removing,
        ParkedRecords,
        NarrowsCapabilities,
        HandsBacklogToSubscribers {
  public static final String SCHEME = "amqp";
  private static final Logger LOG = Logger.getLogger(AmqpProvider.class.getName());
  private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(1);

  private final AmqpSettings settings;
  private final BrokerLink link;
  private final AmqpQueues queues;
  private final LocalSubscribers subscribers;
  private final LeasedFetches fetches;
  private final LeaseTable<Held> leases; // the fetches' leases
  private final HeldDeliveries held = new HeldDeliveries();
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final DeliveryReader reader = new DeliveryReader();
  private final AmqpStatus status;
  private final QueueBrowser browser;
  private final PeriodicTask sweeper; // returns expired leases, so other consumers get them

  public AmqpProvider(AmqpSettings settings, Clock clock, Scheduler scheduler) {
    super(clock, scheduler);
    this.settings = settings;
    this.link = new BrokerLink(settings, scheduler, clock, this::deliveriesReturned);
    QueueNames names = new QueueNames(settings.retryDelaysMillis());
    this.queues = new AmqpQueues(link, names, a -> deadLetterSource(a).isPresent());
    this.subscribers = new LocalSubscribers(link, queues, this::newConsumer);
    link.whenConnected(subscribers::attachConsumers);
    this.status = new AmqpStatus(link, queues, reader);
    this.browser = new QueueBrowser(link, queues, reader);
    this.fetches = new LeasedFetches(link, queues, reader, held, clock, this::overDeliveryCap);
    this.leases = fetches.leases;
    this.sweeper =
        new PeriodicTask(
            "The amqp: lease sweep",
            scheduler,
            SWEEP_INTERVAL,
            () -> leases.addresses().forEach(this::reclaimExpired));
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  // ---- connection ------------------------------------------------------------------------------

  @Override
  public void start() {
    link.start();
    sweeper.start();
  }

  /** RabbitMQ requeued every unacknowledged delivery: leases and held deliveries are void. */
  private void deliveriesReturned() {
    leases.clear();
    held.clear();
  }

  @Override
  public void stop(boolean purge) {
    sweeper.stop();
    if (purge) {
      clearBacklog();
    }
    subscribers.closeConsumers();
    link.stop(); // unacknowledged deliveries go back to their queues
    deliveriesReturned();
    queues.connectionClosed();
  }

  /** Whether RabbitMQ answered a real round trip recently (cached for the probe interval). */
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

  /** Publishes each copy to its topic's queue; returns once RabbitMQ confirmed all of them. */
  private void publish(List<MailAddress> topics, List<MailMessage> copies) {
    List<ConfirmedPublisher.Outgoing> outgoing = new ArrayList<>(copies.size());
    for (int i = 0; i < copies.size(); i++) {
      outgoing.add(
          ConfirmedPublisher.Outgoing.of(
              topics.get(i), queues.declare(topics.get(i)), copies.get(i)));
    }
    try {
      link.publisher().publishAll(outgoing);
    } catch (MailboxException e) {
      // A queue deleted behind our back makes publishes unroutable: declare again next time.
      outgoing.forEach(o -> queues.forget(o.queue()));
      throw e;
    }
    Instant now = now();
    topics.forEach(topic -> lastActivity.put(topic, now));
  }

  // ---- subscriptions ---------------------------------------------------------------------------

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver subscription) {
    AutoCloseable handle = subscribers.add(address, subscription);
    lastActivity.putIfAbsent(address, now());
    return handle;
  }

  private BrokerConsumer newConsumer(MailAddress address, String queue) {
    return new BrokerConsumer(
        link, address, queue, settings.prefetch(), scheduler(), held::holdsAnyOf, this::onDelivery);
  }

  private void onDelivery(
      MailAddress address,
      Channel channel,
      long tag,
      AMQP.BasicProperties properties,
      byte[] body) {
    MailMessage copy = reader.read(address, properties, body);
    List<Receiver> receivers = subscribers.receivers(address);
    if (receivers.isEmpty()) {
      // Arrived after the last subscriber left: back to the queue for the next consumer.
      new Held(channel, tag).nack();
      return;
    }
    held.hold(copy.sendId().orElseThrow(), new Held(channel, tag));
    lastActivity.put(address, now());
    if (overDeliveryCap(address, copy)) {
      return;
    }
    dispatch(address, copy, receivers);
  }

  /**
   * A copy whose next hand-out would exceed the delivery cap is given up ({@code max-deliveries})
   * instead of handed out. It must be held already, so giving up acks it.
   */
  private boolean overDeliveryCap(MailAddress address, MailMessage copy) {
    int deliveredBefore = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 0);
    if (settings.maxDeliveries() == 0 || deliveredBefore < settings.maxDeliveries()) {
      return false;
    }
    giveUpQueued(address, copy, "max-deliveries", deliveredBefore);
    return true;
  }

  // ---- fetch and leases ------------------------------------------------------------------------

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    List<MailMessage> taken = fetches.take(address, limit, lease, handOut);
    if (!taken.isEmpty()) {
      lastActivity.put(address, now());
    }
    return taken;
  }

  @Override
  public Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
    return fetches.release(address, key, leaseId);
  }

  @Override
  public List<InFlightCopy> inFlightCopies(MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    return fetches.reclaimExpired(address);
  }

  // ---- settlement ------------------------------------------------------------------------------

  @Override
  public void acknowledge(MailAddress topic, MailMessage copy) {
    held.release(copy.sendId().orElseThrow()).ifPresent(Held::ack);
  }

  @Override
  public void abandon(MailAddress address, MailMessage copy) {
    acknowledge(address, copy);
  }

  /**
   * The replacement (dead-letter record or parked copy) is confirmed first, then the original is
   * acked: a crash in between duplicates the record at worst, never loses the message. If the
   * replacement cannot be stored the original goes back to its queue.
   */
  @Override
  public void replaceGivenUp(MailAddress topic, MailMessage copy, Runnable storeReplacement) {
    try {
      storeReplacement.run();
    } catch (RuntimeException e) {
      held.release(copy.sendId().orElseThrow()).ifPresent(Held::nack);
      throw e;
    }
    abandon(topic, copy);
  }

  /**
   * Back to the queue. Push consumers get the copy again after the retry delay of its round; fetch
   * consumers (and any consumer with no delays configured) at once, in place.
   */
  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    Optional<Held> delivery = held.release(copy.sendId().orElseThrow());
    QueueNames names = queues.names();
    boolean pushed = !subscribers.receivers(address).isEmpty();
    if (delivery.isPresent() && (!pushed || names.retryDelaysMillis().isEmpty())) {
      delivery.get().nack(); // RabbitMQ counts it (x-delivery-count)
      return true;
    }
    String queue = queues.declare(address);
    String target =
        names.retryDelaysMillis().isEmpty()
            ? queue
            : queues.declareRetry(
                queue, names.delayForRound(SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1)));
    try {
      link.publisher().publishAll(List.of(ConfirmedPublisher.Outgoing.of(address, target, copy)));
    } catch (RuntimeException e) {
      delivery.ifPresent(Held::nack); // not stored elsewhere: keep the original
      throw e;
    }
    delivery.ifPresent(Held::ack);
    return true;
  }

  @Override
  public void park(MailAddress address, MailMessage record) {
    String parked = queues.declareParked(queues.declare(address));
    link.publisher().publishAll(List.of(ConfirmedPublisher.Outgoing.of(address, parked, record)));
    LOG.warning(() -> "Parked " + record + " in RabbitMQ queue " + parked);
  }

  // ---- looking ---------------------------------------------------------------------------------

  /** Peek and remove-one only where nobody consumes: a dead-letter address (see the class). */
  @Override
  public boolean canAt(String capability, MailAddress address) {
    boolean looks = Capabilities.PEEK.equals(capability) || Capabilities.REMOVE.equals(capability);
    return !looks || deadLetterSource(address).isPresent();
  }

  @Override
  public List<MailMessage> peekQueued(MailAddress address, int limit) {
    return browser.peek(address, queues.nameOf(address), limit);
  }

  @Override
  public int removeQueuedCopies(MailAddress address, String key) {
    return key == null
        ? queues.purgeQueued(address)
        : browser.remove(address, queues.nameOf(address), key);
  }

  @Override
  public List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return browser.peek(address, QueueNames.parked(queues.nameOf(address)), limit);
  }

  @Override
  public int removeParked(MailAddress address, String key) {
    String parked = QueueNames.parked(queues.nameOf(address));
    return key == null ? browser.purge(parked) : browser.remove(address, parked, key);
  }

  @Override
  public long clearBacklog() {
    long dropped = queues.purgeAll();
    for (LeaseTable.Leased<Held> leased : leases.takeAll()) {
      leased.handle().ack();
      dropped++;
    }
    return dropped;
  }

  /** Every queue this provider instance declared, across restarts (for tests that clean up). */
  Set<String> declaredQueues() {
    return queues.everDeclared();
  }

  // ---- status ----------------------------------------------------------------------------------

  @Override
  public AddressStatus status(MailAddress address) {
    return status.of(
        address,
        leases.census(address, now()),
        broadcastsInFlight(address),
        subscribers.receivers(address).size(),
        lastActivity.get(address));
  }

  /**
   * The addresses this process used since it started (posted to, subscribed, fetched): RabbitMQ
   * cannot list queues over AMQP.
   */
  @Override
  public List<AddressStatus> enumerate() {
    Set<MailAddress> known = new TreeSet<>(lastActivity.keySet());
    known.addAll(subscribers.addresses());
    return known.stream()
        .map(this::status)
        .sorted(Comparator.comparing(AddressStatus::address))
        .toList();
  }
}
