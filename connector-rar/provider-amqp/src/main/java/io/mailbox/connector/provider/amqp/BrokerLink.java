package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.Backoff;
import io.mailbox.connector.spi.Scheduler;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * The one connection to RabbitMQ and its shared channels: connecting (again and again while the
 * broker is down at start, with the shared backoff up to 30 s), the client's automatic recovery
 * after a loss, the confirmed publisher, an admin channel for declarations and inspections, a fetch
 * channel for {@code basic.get}, and a cached reachability probe.
 *
 * <p>Its monitor is the connection's lock: {@code onConnected} runs under it, so a caller that
 * checks {@link #isConnected} under the same monitor cannot miss the moment of connecting.
 */
final class BrokerLink {
  private static final Logger LOG = Logger.getLogger(BrokerLink.class.getName());
  private static final Duration FIRST_RECONNECT_WAIT = Duration.ofSeconds(1);
  private static final Duration MAX_RECONNECT_WAIT = Duration.ofSeconds(30);

  /** A call on a channel that may fail on the wire. */
  @FunctionalInterface
  interface ChannelCall<T> {
    T call(Channel channel) throws IOException;
  }

  /** A message {@code basic.get} returned, and the channel that must settle it. */
  record Fetched(Channel channel, GetResponse response) {}

  private record Probe(boolean reachable, Instant at) {}

  private final AmqpSettings settings;
  private final Scheduler scheduler;
  private final Clock clock;
  private final Runnable onLost;
  private volatile Runnable onConnected = () -> {};
  private final AtomicLong recoveries = new AtomicLong();
  private final Object fetchLock = new Object();
  private final Object adminLock = new Object();
  private volatile Connection connection;
  private volatile ConfirmedPublisher publisher;
  private volatile Probe probe = new Probe(false, Instant.EPOCH);
  private volatile boolean running;
  private ConnectionFactory factory; // set by start
  private Scheduler.Cancellable reconnect; // guarded by this
  private Channel fetchChannel; // guarded by fetchLock
  private Channel adminChannel; // guarded by adminLock

  /**
   * @param onLost called when the connection closes: RabbitMQ has requeued every unacknowledged
   *     delivery, so what the provider holds of them is void
   */
  BrokerLink(AmqpSettings settings, Scheduler scheduler, Clock clock, Runnable onLost) {
    this.settings = settings;
    this.scheduler = scheduler;
    this.clock = clock;
    this.onLost = onLost;
  }

  /** Runs {@code task} under this link's monitor each time a connection is open. */
  void whenConnected(Runnable task) {
    this.onConnected = task;
  }

  /**
   * Connects, or keeps trying in the background: a broker that is down at start delays only this
   * provider (amqp: reports offline meanwhile).
   */
  void start() {
    ConnectionFactory configured = new ConnectionFactory();
    try {
      configured.setUri(settings.uri().strip());
    } catch (Exception e) {
      throw new MailboxException(ErrorCode.INVALID_POLICY, "Property amqpUri is not usable.");
    }
    configured.setAutomaticRecoveryEnabled(true);
    configured.setTopologyRecoveryEnabled(true); // consumers are re-attached after a recovery
    configured.setNetworkRecoveryInterval(1_000);
    configured.setRequestedHeartbeat(10);
    configured.setConnectionTimeout(5_000);
    configured.setChannelRpcTimeout(10_000);
    factory = configured;
    running = true;
    connectOrRetry(1);
  }

  private void connectOrRetry(int attempt) {
    if (!running || connection != null) {
      return;
    }
    try {
      connect();
    } catch (IOException | TimeoutException | RuntimeException e) {
      Duration wait = Backoff.after(attempt, FIRST_RECONNECT_WAIT, MAX_RECONNECT_WAIT);
      probe = new Probe(false, clock.instant());
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
          reconnect = scheduler.schedule(wait, () -> connectOrRetry(attempt + 1));
        }
      }
    }
  }

  private void connect() throws IOException, TimeoutException {
    Connection opened = factory.newConnection("mailbox");
    opened.addShutdownListener(
        cause -> {
          probe = new Probe(false, clock.instant());
          onLost.run();
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
              probe = new Probe(true, clock.instant());
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
      probe = new Probe(true, clock.instant());
      onConnected.run();
    }
    LOG.info(() -> "Connected to RabbitMQ at " + settings.where());
  }

  /** Stops connecting and closes the connection (unacknowledged deliveries go back). */
  void stop() {
    synchronized (this) {
      running = false;
      if (reconnect != null) {
        reconnect.cancel();
        reconnect = null;
      }
    }
    Connection open = connection;
    connection = null;
    if (open != null) {
      try {
        open.close(5_000);
      } catch (IOException | RuntimeException e) {
        LOG.fine(() -> "Closing the RabbitMQ connection: " + e.getClass().getSimpleName());
      }
    }
    synchronized (fetchLock) {
      fetchChannel = null;
    }
    synchronized (adminLock) {
      adminChannel = null;
    }
  }

  boolean isRunning() {
    return running;
  }

  boolean isConnected() {
    return connection != null;
  }

  long recoveries() {
    return recoveries.get();
  }

  Connection connection() {
    Connection open = connection;
    if (open == null) {
      throw notConnected();
    }
    return open;
  }

  ConfirmedPublisher publisher() {
    ConfirmedPublisher open = publisher;
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
  boolean reachable() {
    Connection open = connection;
    if (open == null || !open.isOpen()) {
      return false;
    }
    Probe last = probe;
    if (Duration.between(last.at(), clock.instant()).compareTo(settings.probeInterval()) < 0) {
      return last.reachable();
    }
    boolean answered;
    try {
      admin(channel -> channel.exchangeDeclarePassive("amq.direct"));
      answered = true;
    } catch (RuntimeException e) {
      answered = false;
    }
    probe = new Probe(answered, clock.instant());
    return answered;
  }

  /**
   * Runs a declaration or an inspection on the admin channel. A refused one (404 for a missing
   * queue) closes that channel, so it is reopened for the next call.
   */
  <T> T admin(ChannelCall<T> call) {
    synchronized (adminLock) {
      try {
        if (adminChannel == null || !adminChannel.isOpen()) {
          adminChannel = connection().createChannel();
        }
        return call.call(adminChannel);
      } catch (IOException | AlreadyClosedException e) {
        throw new BrokerCallFailed(e);
      }
    }
  }

  /**
   * Runs {@code call} on a channel of its own, then closes it: RabbitMQ returns every delivery the
   * call took and did not acknowledge to its queue, in place (a look that changes nothing).
   */
  <T> T onOwnChannel(ChannelCall<T> call) {
    try (Channel channel = connection().createChannel()) {
      return call.call(channel);
    } catch (IOException | AlreadyClosedException | java.util.concurrent.TimeoutException e) {
      throw new BrokerCallFailed(e);
    }
  }

  /** One {@code basic.get} on the fetch channel; null response when the queue is empty. */
  Fetched get(String queue, boolean autoAck) {
    synchronized (fetchLock) {
      try {
        if (fetchChannel == null || !fetchChannel.isOpen()) {
          fetchChannel = connection().createChannel();
        }
        return new Fetched(fetchChannel, fetchChannel.basicGet(queue, autoAck));
      } catch (IOException | AlreadyClosedException e) {
        throw new BrokerCallFailed(e);
      }
    }
  }
}
