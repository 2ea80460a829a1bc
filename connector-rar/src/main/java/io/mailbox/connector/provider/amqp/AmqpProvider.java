package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.TransportBase;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The {@code amqp:} provider: RabbitMQ as the transport.
 *
 * <p><b>Mapping.</b> Every address is one durable quorum queue named by its mailbox ({@link
 * QueueNames}). A post is published persistent and mandatory to that queue through the default
 * exchange and returns once RabbitMQ confirmed it. Subscribers of an address in this process share
 * one broker consumer (manual acks, a prefetch window); each delivery goes to every local
 * subscriber through the kernel's broadcast settlement. Consumers on other servers compete for the
 * queue's messages, as RabbitMQ consumers do. Because a message always goes through the queue, a
 * subscriber is also handed what was queued before it subscribed ({@code
 * subscribers-take-backlog}).
 *
 * <p><b>Dispositions.</b> Handled = ack. Unhandled = for push consumers a delayed retry: the copy
 * is published to {@code <queue>.retry.<delay>ms} (a quorum queue whose message TTL dead-letters it
 * back, at least once) and the original acked only after that publish was confirmed; for fetch
 * consumers, and with no delays configured, a requeue in place (nack). Discard, a spent delivery
 * cap and a fatal failure: the dead-letter record is published (confirmed) first, then the original
 * acked. RabbitMQ counts redeliveries ({@code x-delivery-count}), so rounds survive lost
 * connections.
 *
 * <p><b>Leases.</b> A leased fetch is a {@code basic.get} without auto-ack; the lease is kept here,
 * and an expired one is returned to the queue (nack) by a sweeper, on the next fetch or by {@code
 * recover}. A late settle of a returned lease changes nothing. RabbitMQ's own {@code
 * consumer_timeout} (30 minutes by default) closes a channel holding a delivery longer than that,
 * so leases longer than it are not kept.
 *
 * <p><b>Not declared</b>: peek (RabbitMQ cannot read without taking), locate, parked records
 * (parked copies go to {@code <queue>.parked}, counted in the status, but are not listed through
 * the API).
 */
public final class AmqpProvider extends TransportBase
    implements Recovering, Enumerating, HandsBacklogToSubscribers {
  public static final String SCHEME = "amqp";
  private static final Logger LOG = Logger.getLogger(AmqpProvider.class.getName());
  private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(1);

  private final AmqpSettings settings;
  private final QueueNames names;
  private final Map<MailAddress, List<Receiver>> subscribers = new ConcurrentHashMap<>();
  private final Map<MailAddress, BrokerConsumer> consumers = new ConcurrentHashMap<>();
  private final LeaseTable<Held> leases = new LeaseTable<>();
  private final Map<String, Held> held = new ConcurrentHashMap<>();
  private final Map<MailAddress, String> queueNames = new ConcurrentHashMap<>(); // checked names
  private final Set<String> declared = ConcurrentHashMap.newKeySet(); // on this connection
  private final Set<String> everDeclared = ConcurrentHashMap.newKeySet(); // since construction
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final AtomicLong droppedForeignHeaders = new AtomicLong();
  private final AtomicLong recoveries = new AtomicLong();
  private volatile Connection connection;
  private volatile ConfirmedPublisher publisher;
  private Channel fetchChannel; // guarded by fetchLock
  private final Object fetchLock = new Object();
  private Channel adminChannel; // guarded by adminLock
  private final Object adminLock = new Object();
  private volatile Probe probe = new Probe(false, Instant.EPOCH);
  private ConnectionFactory connectionFactory; // set by onStart
  private volatile boolean running;
  private Scheduler.Cancellable reconnect; // guarded by this
  private static final Duration FIRST_RECONNECT_WAIT = Duration.ofSeconds(1);
  private static final Duration MAX_RECONNECT_WAIT = Duration.ofSeconds(30);
  private Scheduler.Cancellable sweeper; // guarded by this

  /** A delivery being settled: which channel must ack or nack it, and its tag there. */
  private record Held(Channel channel, long tag) {}

  private record Probe(boolean reachable, Instant at) {}

  public AmqpProvider(AmqpSettings settings, Clock clock, Scheduler scheduler) {
    super(clock, scheduler);
    this.settings = settings;
    this.names = new QueueNames(settings.retryDelaysMillis());
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  public AmqpSettings settings() {
    return settings;
  }

  // ---- connection ------------------------------------------------------------------------------

  @Override
  public void start() {
    ConnectionFactory factory = new ConnectionFactory();
    try {
      factory.setUri(settings.uri().strip());
    } catch (Exception e) {
      throw new MailboxException(ErrorCode.INVALID_POLICY, "Property amqpUri is not usable.");
    }
    factory.setAutomaticRecoveryEnabled(true);
    factory.setTopologyRecoveryEnabled(true); // consumers are re-attached after a recovery
    factory.setNetworkRecoveryInterval(1_000);
    factory.setRequestedHeartbeat(10);
    factory.setConnectionTimeout(5_000);
    factory.setChannelRpcTimeout(10_000);
    connectionFactory = factory;
    running = true;
    // A broker that is down at start delays only this provider: the adapter starts, amqp: reports
    // offline, and the connection is tried again until the broker answers.
    connectOrRetry(Duration.ZERO);
    scheduleSweep();
  }

  /** Tries to connect; after a failure, tries again later (doubling the wait up to 30 s). */
  private void connectOrRetry(Duration lastWait) {
    if (!running || connection != null) {
      return;
    }
    try {
      connect();
    } catch (IOException | TimeoutException | RuntimeException e) {
      Duration wait =
          lastWait.isZero()
              ? FIRST_RECONNECT_WAIT
              : lastWait.multipliedBy(2).compareTo(MAX_RECONNECT_WAIT) > 0
                  ? MAX_RECONNECT_WAIT
                  : lastWait.multipliedBy(2);
      probe = new Probe(false, now());
      LOG.warning(
          () ->
              "RabbitMQ at "
                  + settings.where()
                  + " is not reachable ("
                  + e.getClass().getSimpleName()
                  + "): amqp: is offline, connecting again in "
                  + wait.toMillis()
                  + " ms");
      synchronized (this) {
        if (running) {
          reconnect = scheduler().schedule(wait, () -> connectOrRetry(wait));
        }
      }
    }
  }

  private void connect() throws IOException, TimeoutException {
    Connection opened = connectionFactory.newConnection("mailbox");
    opened.addShutdownListener(
        cause -> {
          // The broker requeues every unacknowledged delivery of a closed connection: leases and
          // deliveries being settled are void (a late settle changes nothing; the copy comes back).
          probe = new Probe(false, now());
          leases.clear();
          held.clear();
          if (!cause.isInitiatedByApplication()) {
            LOG.warning(() -> "Lost the connection to RabbitMQ at " + settings.where());
          }
        });
    if (opened instanceof Recoverable recoverable) {
      recoverable.addRecoveryListener(
          new RecoveryListener() {
            @Override
            public void handleRecovery(Recoverable recovered) {
              recoveries.incrementAndGet();
              probe = new Probe(true, now());
              LOG.info(() -> "Reconnected to RabbitMQ at " + settings.where());
            }

            @Override
            public void handleRecoveryStarted(Recoverable recovering) {}
          });
    }
    synchronized (this) {
      if (!running) {
        opened.abort();
        return;
      }
      publisher = new ConfirmedPublisher(opened, settings.publishTimeout());
      connection = opened;
      probe = new Probe(true, now());
      // Subscriptions opened while the broker was away get their broker consumers now.
      subscribers.forEach(
          (address, list) -> {
            if (!list.isEmpty()) {
              try {
                consumers.computeIfAbsent(address, a -> new BrokerConsumer(a, declare(a)));
              } catch (RuntimeException e) {
                LOG.warning(
                    () ->
                        "Could not attach the consumer of "
                            + address
                            + " after connecting: "
                            + e.getClass().getSimpleName());
              }
            }
          });
    }
    LOG.info(() -> "Connected to RabbitMQ at " + settings.where());
  }

  @Override
  public void stop(boolean purge) {
    synchronized (this) {
      running = false;
      if (reconnect != null) {
        reconnect.cancel();
        reconnect = null;
      }
      if (sweeper != null) {
        sweeper.cancel();
        sweeper = null;
      }
    }
    if (purge) {
      clearBacklog();
    }
    consumers.values().forEach(BrokerConsumer::close);
    consumers.clear();
    Connection open = connection;
    connection = null;
    if (open != null) {
      try {
        // Unacknowledged deliveries go back to their queues when the connection closes.
        open.close(5_000);
      } catch (IOException | RuntimeException e) {
        LOG.fine(() -> "Closing the RabbitMQ connection: " + e.getClass().getSimpleName());
      }
    }
    leases.clear();
    held.clear();
    declared.clear();
    synchronized (fetchLock) {
      fetchChannel = null;
    }
    synchronized (adminLock) {
      adminChannel = null;
    }
  }

  private Connection connection() {
    Connection open = connection;
    if (open == null) {
      throw notConnected();
    }
    return open;
  }

  private MailboxException notConnected() {
    if (!running) {
      return new MailboxException(
          ErrorCode.NOT_STARTED, "The 'amqp:' provider is not connected; start it first.");
    }
    return new MailboxException(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "RabbitMQ at "
            + settings.where()
            + " has not answered since the adapter started; amqp: keeps connecting (nothing was"
            + " sent).");
  }

  /** Whether RabbitMQ answered a real round trip recently (cached for the probe interval). */
  @Override
  public boolean reachable() {
    Connection open = connection;
    if (open == null || !open.isOpen()) {
      return false;
    }
    Probe last = probe;
    if (Duration.between(last.at(), now()).compareTo(settings.probeInterval()) < 0) {
      return last.reachable();
    }
    boolean answered;
    try {
      admin(channel -> channel.exchangeDeclarePassive("amq.direct"));
      answered = true;
    } catch (RuntimeException e) {
      answered = false;
    }
    probe = new Probe(answered, now());
    return answered;
  }

  @FunctionalInterface
  private interface ChannelCall<T> {
    T call(Channel channel) throws IOException;
  }

  /**
   * Runs a declaration or an inspection on the admin channel. A refused one (404 for a missing
   * queue) closes that channel, so it is reopened for the next call.
   */
  private <T> T admin(ChannelCall<T> call) {
    synchronized (adminLock) {
      try {
        if (adminChannel == null || !adminChannel.isOpen()) {
          adminChannel = connection().createChannel();
        }
        return call.call(adminChannel);
      } catch (IOException e) {
        throw new BrokerCallFailed(e);
      } catch (com.rabbitmq.client.AlreadyClosedException e) {
        throw new BrokerCallFailed(e);
      }
    }
  }

  /** A broker call failed; carries whether it was a 404 (the queue does not exist). */
  private static final class BrokerCallFailed extends MailboxException {
    private static final long serialVersionUID = 1L;
    final boolean notFound;

    BrokerCallFailed(Exception cause) {
      super(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "RabbitMQ refused or did not answer a call (" + cause.getClass().getSimpleName() + ").",
          cause);
      this.notFound = describes404(cause);
    }

    private static boolean describes404(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof com.rabbitmq.client.ShutdownSignalException signal
            && signal.getReason() instanceof AMQP.Channel.Close close
            && close.getReplyCode() == AMQP.NOT_FOUND) {
          return true;
        }
      }
      return false;
    }
  }

  // ---- queues ----------------------------------------------------------------------------------

  private static Map<String, Object> quorum() {
    Map<String, Object> arguments = new LinkedHashMap<>();
    arguments.put("x-queue-type", "quorum");
    return arguments;
  }

  /** Declares the queue of {@code address} (durable, quorum) once per connection. */
  private String declare(MailAddress address) {
    return declareOnce(queueNames.computeIfAbsent(address, names::queue), quorum());
  }

  /** Declares a durable queue unless this connection already did; returns its name. */
  private String declareOnce(String queue, Map<String, Object> arguments) {
    if (!declared.contains(queue)) {
      admin(channel -> channel.queueDeclare(queue, true, false, false, arguments));
      declared.add(queue);
      everDeclared.add(queue);
    }
    return queue;
  }

  /**
   * Declares a retry queue: messages wait there {@code delay} ms, then RabbitMQ dead-letters them
   * back to {@code queue}. At-least-once dead-lettering (quorum only) keeps a copy the target
   * cannot take yet instead of dropping it.
   */
  private String declareRetry(String queue, long delay) {
    Map<String, Object> arguments = quorum();
    arguments.put("x-message-ttl", delay);
    arguments.put("x-dead-letter-exchange", "");
    arguments.put("x-dead-letter-routing-key", queue);
    arguments.put("x-dead-letter-strategy", "at-least-once");
    arguments.put("x-overflow", "reject-publish");
    return declareOnce(QueueNames.retry(queue, delay), arguments);
  }

  private String declareParked(String queue) {
    return declareOnce(QueueNames.parked(queue), quorum());
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
      outgoing.add(outgoing(declare(topics.get(i)), copies.get(i)));
    }
    try {
      publisher().publishAll(outgoing);
    } catch (MailboxException e) {
      // A queue deleted behind our back makes publishes unroutable: declare again next time.
      outgoing.forEach(o -> declared.remove(o.queue()));
      throw e;
    }
    Instant now = now();
    topics.forEach(topic -> lastActivity.put(topic, now));
  }

  private static ConfirmedPublisher.Outgoing outgoing(String queue, MailMessage copy) {
    return new ConfirmedPublisher.Outgoing(
        queue, copy.sendId().orElseThrow(), AmqpMessages.properties(copy), AmqpMessages.body(copy));
  }

  private ConfirmedPublisher publisher() {
    ConfirmedPublisher open = publisher;
    if (open == null) {
      throw notConnected();
    }
    return open;
  }

  // ---- subscriptions ---------------------------------------------------------------------------

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver subscription) {
    List<Receiver> list = subscribers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    synchronized (this) {
      if (connection != null) {
        String queue = declare(address);
        list.add(subscription);
        try {
          consumers.computeIfAbsent(address, a -> new BrokerConsumer(a, queue));
        } catch (RuntimeException e) {
          list.remove(subscription);
          throw e;
        }
      } else {
        list.add(subscription); // its broker consumer is attached once the broker answers
      }
    }
    lastActivity.putIfAbsent(address, now());
    return () -> {
      list.remove(subscription);
      if (list.isEmpty()) {
        BrokerConsumer consumer = consumers.remove(address);
        if (consumer != null) {
          consumer.cancel();
        }
      }
    };
  }

  /**
   * The one broker consumer of an address in this process, on its own channel with the prefetch
   * window; every delivery goes to all local subscribers.
   */
  private final class BrokerConsumer {
    private final MailAddress address;
    private final Channel channel;
    private final String consumerTag;

    BrokerConsumer(MailAddress address, String queue) {
      this.address = address;
      try {
        channel = connection().createChannel();
        channel.basicQos(settings.prefetch());
        consumerTag =
            channel.basicConsume(
                queue,
                false,
                new DefaultConsumer(channel) {
                  @Override
                  public void handleDelivery(
                      String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                    onDelivery(
                        BrokerConsumer.this.address,
                        channel,
                        envelope.getDeliveryTag(),
                        properties,
                        body);
                  }
                });
      } catch (IOException e) {
        throw new BrokerCallFailed(e);
      }
    }

    /**
     * Stops new deliveries; the channel stays open so deliveries being handled can still be acked
     * (it closes with the connection).
     */
    void cancel() {
      try {
        channel.basicCancel(consumerTag);
      } catch (IOException | RuntimeException e) {
        LOG.fine(() -> "Cancelling a consumer of " + address + ": " + e.getClass().getSimpleName());
      }
      closeWhenSettled(60);
    }

    /** Closes the channel once nothing it delivered is being settled (checked once a second). */
    private void closeWhenSettled(int checksLeft) {
      boolean busy = held.values().stream().anyMatch(h -> h.channel() == channel);
      if (!busy || checksLeft == 0) {
        close(); // anything still unacknowledged goes back to the queue
        return;
      }
      scheduler().schedule(Duration.ofSeconds(1), () -> closeWhenSettled(checksLeft - 1));
    }

    void close() {
      try {
        if (channel.isOpen()) {
          channel.close();
        }
      } catch (IOException | TimeoutException | RuntimeException e) {
        LOG.fine(() -> "Closing a consumer of " + address + ": " + e.getClass().getSimpleName());
      }
    }
  }

  private void onDelivery(
      MailAddress address,
      Channel channel,
      long tag,
      AMQP.BasicProperties properties,
      byte[] body) {
    MailMessage copy = receive(address, properties, body);
    List<Receiver> receivers = List.copyOf(subscribers.getOrDefault(address, List.of()));
    if (receivers.isEmpty()) {
      // Arrived after the last subscriber left: back to the queue for the next consumer.
      nack(channel, tag);
      return;
    }
    String key = copy.sendId().orElseThrow();
    held.put(key, new Held(channel, tag));
    lastActivity.put(address, now());
    if (overDeliveryCap(address, copy)) {
      return;
    }
    dispatch(address, copy, receivers);
  }

  private MailMessage receive(MailAddress address, AMQP.BasicProperties properties, byte[] body) {
    AmqpMessages.Received received = AmqpMessages.read(address, properties, body);
    if (received.droppedHeaders() > 0) {
      droppedForeignHeaders.addAndGet(received.droppedHeaders());
      LOG.fine(
          () ->
              "Dropped "
                  + received.droppedHeaders()
                  + " header(s) of a message at "
                  + address
                  + " that were not safe to carry (see amqp.droppedHeaders)");
    }
    return received.copy();
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
    String queue = declare(address);
    if (lease != null) {
      reclaimExpired(address);
    }
    List<MailMessage> taken = new ArrayList<>();
    while (taken.size() < limit) {
      GetResponse response;
      Channel channel;
      synchronized (fetchLock) {
        try {
          if (fetchChannel == null || !fetchChannel.isOpen()) {
            fetchChannel = connection().createChannel();
          }
          channel = fetchChannel;
          response = channel.basicGet(queue, lease == null);
        } catch (IOException | com.rabbitmq.client.AlreadyClosedException e) {
          throw new BrokerCallFailed(e);
        }
      }
      if (response == null) {
        break;
      }
      MailMessage copy = receive(address, response.getProps(), response.getBody());
      long tag = response.getEnvelope().getDeliveryTag();
      String key = copy.sendId().orElseThrow();
      if (lease != null) {
        held.put(key, new Held(channel, tag));
        if (overDeliveryCap(address, copy)) {
          continue;
        }
        held.remove(key);
      }
      MailMessage handedOut = handOut.apply(copy);
      if (lease != null) {
        leases.put(key, address, lease, handedOut, new Held(channel, tag));
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
    Optional<LeaseTable.Leased<Held>> released = leases.release(address, key, leaseId);
    if (released.isEmpty()) {
      return Optional.empty();
    }
    LeaseTable.Leased<Held> leased = released.get();
    if (leased.lease().isExpiredAt(now())) {
      // Too late: the lease is over, so the copy goes back to the queue and this settle is stale.
      nack(leased.handle().channel(), leased.handle().tag());
      return Optional.empty();
    }
    held.put(key, leased.handle());
    return Optional.of(leased.copy());
  }

  @Override
  public List<io.mailbox.connector.api.InFlightCopy> inFlightCopies(
      MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    List<LeaseTable.Leased<Held>> expired = leases.takeExpired(address, now());
    expired.forEach(leased -> nack(leased.handle().channel(), leased.handle().tag()));
    return expired.size();
  }

  private synchronized void scheduleSweep() {
    if (isStartedOrStarting()) {
      sweeper = scheduler().schedule(SWEEP_INTERVAL, this::sweep);
    }
  }

  private boolean isStartedOrStarting() {
    return connection != null;
  }

  /** Returns expired leases to their queues, so other consumers get them without a fetch here. */
  private void sweep() {
    try {
      leases.addresses().forEach(this::reclaimExpired);
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "Lease sweep failed; the next one retries", e);
    } finally {
      scheduleSweep();
    }
  }

  // ---- settlement ------------------------------------------------------------------------------

  @Override
  public void acknowledge(MailAddress topic, MailMessage copy) {
    Held delivery = held.remove(copy.sendId().orElseThrow());
    if (delivery != null) {
      ack(delivery.channel(), delivery.tag());
    }
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
      Held delivery = held.remove(copy.sendId().orElseThrow());
      if (delivery != null) {
        nack(delivery.channel(), delivery.tag());
      }
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
    Held delivery = held.remove(copy.sendId().orElseThrow());
    boolean pushed = !subscribers.getOrDefault(address, List.of()).isEmpty();
    if (delivery != null && (!pushed || names.retryDelaysMillis().isEmpty())) {
      nack(delivery.channel(), delivery.tag()); // RabbitMQ counts it (x-delivery-count)
      return true;
    }
    String queue = declare(address);
    String target =
        names.retryDelaysMillis().isEmpty()
            ? queue
            : declareRetry(
                queue, names.delayForRound(SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1)));
    try {
      publisher().publishAll(List.of(outgoing(target, copy)));
    } catch (RuntimeException e) {
      if (delivery != null) {
        nack(delivery.channel(), delivery.tag()); // not stored elsewhere: keep the original
      }
      throw e;
    }
    if (delivery != null) {
      ack(delivery.channel(), delivery.tag());
    }
    return true;
  }

  @Override
  public void park(MailAddress address, MailMessage record) {
    String parked = declareParked(declare(address));
    publisher().publishAll(List.of(outgoing(parked, record)));
    LOG.warning(() -> "Parked " + record + " in RabbitMQ queue " + parked);
  }

  private static void ack(Channel channel, long tag) {
    try {
      channel.basicAck(tag, false);
    } catch (IOException | RuntimeException e) {
      // The channel closed: RabbitMQ already returned the delivery to its queue (at least once).
      LOG.fine(() -> "Could not ack a delivery; it will be redelivered");
    }
  }

  private static void nack(Channel channel, long tag) {
    try {
      channel.basicNack(tag, false, true);
    } catch (IOException | RuntimeException e) {
      LOG.fine(() -> "Could not return a delivery; the closed channel returned it");
    }
  }

  @Override
  public long clearBacklog() {
    long dropped = 0;
    for (String queue : List.copyOf(declared)) {
      if (queue.endsWith(".parked")) {
        continue;
      }
      try {
        dropped += admin(channel -> channel.queuePurge(queue)).getMessageCount();
      } catch (BrokerCallFailed e) {
        declared.remove(queue);
      }
    }
    for (LeaseTable.Leased<Held> leased : leases.takeAll()) {
      ack(leased.handle().channel(), leased.handle().tag());
      dropped++;
    }
    return dropped;
  }

  /** Every queue this provider instance declared, across restarts (for tests that clean up). */
  Set<String> declaredQueues() {
    return Set.copyOf(everDeclared);
  }

  // ---- status ----------------------------------------------------------------------------------

  @Override
  public AddressStatus status(MailAddress address) {
    String queue = names.queue(address);
    LeaseTable.Census leased = leases.census(address, now());
    long overdue = leased.overdue();
    long inFlight = leased.inFlight() + broadcastsInFlight(address);
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".queue", queue);
    extensions.put(SCHEME + ".overdueInFlightCount", overdue);
    extensions.put(
        SCHEME + ".subscriberCount", subscribers.getOrDefault(address, List.of()).size());
    if (connection == null || !reachable()) {
      extensions.put(SCHEME + ".reachable", false);
      return new AddressStatus(
          address, AddressState.OFFLINE, null, 0, inFlight, lastActivity.get(address), extensions);
    }
    extensions.put(SCHEME + ".reachable", true);
    Optional<AMQP.Queue.DeclareOk> main = inspect(queue);
    if (main.isEmpty()) {
      return AddressStatus.unknown(address);
    }
    long waitingForRetry = 0;
    for (long delay : names.retryDelaysMillis()) {
      waitingForRetry +=
          inspect(QueueNames.retry(queue, delay))
              .map(AMQP.Queue.DeclareOk::getMessageCount)
              .orElse(0);
    }
    extensions.put(SCHEME + ".consumerCount", (long) main.get().getConsumerCount());
    extensions.put(SCHEME + ".waitingForRetryCount", waitingForRetry);
    extensions.put(
        SCHEME + ".parkedCount",
        inspect(QueueNames.parked(queue)).map(ok -> (long) ok.getMessageCount()).orElse(0L));
    extensions.put(SCHEME + ".droppedHeaders", droppedForeignHeaders.get());
    extensions.put(SCHEME + ".recoveries", recoveries.get());
    return new AddressStatus(
        address,
        AddressState.ONLINE,
        true,
        main.get().getMessageCount() + waitingForRetry,
        inFlight,
        lastActivity.get(address),
        extensions);
  }

  /** A passive declare: the queue's counts, or empty when it does not exist. */
  private Optional<AMQP.Queue.DeclareOk> inspect(String queue) {
    try {
      return Optional.of(admin(channel -> channel.queueDeclarePassive(queue)));
    } catch (BrokerCallFailed e) {
      if (e.notFound) {
        declared.remove(queue);
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * The addresses this process used since it started (posted to, subscribed, fetched): RabbitMQ
   * cannot list queues over AMQP.
   */
  @Override
  public List<AddressStatus> enumerate() {
    Set<MailAddress> known = new TreeSet<>(lastActivity.keySet());
    known.addAll(subscribers.keySet());
    return known.stream()
        .map(this::status)
        .sorted(Comparator.comparing(AddressStatus::address))
        .toList();
  }
}
