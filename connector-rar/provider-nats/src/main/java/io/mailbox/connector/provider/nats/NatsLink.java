package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.PurgeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.ConsumerInfo;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The provider's connection to NATS and its JetStream view: connecting (again, forever by default,
 * {@code natsMaxReconnects}), whether the server answers (a round trip cached for the probe
 * interval), the stream (found, or created with the explicit subject {@code <prefix>.>}; never a
 * catch-all), and the durable consumers (created at an address's first use, starting at messages
 * stored after it). A lost connection is logged once at WARNING, its recovery at INFO.
 */
final class NatsLink implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(NatsLink.class.getName());
  private static final Duration CONNECT_BOUND = Duration.ofSeconds(5);
  private static final Duration PROBE_BOUND = Duration.ofSeconds(2);
  // JetStream's API error codes (the server's own catalogue).
  private static final int STREAM_NOT_FOUND = 10059;
  private static final int CONSUMER_NOT_FOUND = 10014;
  private static final int JETSTREAM_NOT_ENABLED = 10039;
  private static final int JETSTREAM_NOT_ENABLED_FOR_ACCOUNT = 10076;
  private static final int MAX_ACK_PENDING = 20_000;

  private final NatsSettings settings;
  private final SubjectNames names;
  private final Clock clock;
  private final Set<String> consumers = ConcurrentHashMap.newKeySet();
  private final Map<String, String> ownersHere = new ConcurrentHashMap<>(); // consumer → owner
  private volatile Connection connection;
  private volatile boolean streamReady;
  private volatile boolean down;
  private volatile Instant probedAt = Instant.MIN;
  private volatile boolean lastProbe;

  NatsLink(NatsSettings settings, SubjectNames names, Clock clock) {
    this.settings = settings;
    this.names = names;
    this.clock = clock;
  }

  /**
   * Connects, reconnecting in the background when the server is not there yet (the adapter starts
   * anyway); when it answers, checks JetStream and the stream at once, so that a server without
   * JetStream stops the start with {@code MBX-2007}.
   */
  void start() {
    Options options =
        new Options.Builder()
            .servers(settings.url().split(","))
            .connectionName("mailbox")
            .connectionTimeout(CONNECT_BOUND)
            .maxReconnects(settings.maxReconnects())
            .reconnectWait(settings.reconnectWait())
            .connectionListener(this::connectionEvent)
            .errorListener(new ErrorListener() {})
            .build();
    try {
      connection = Nats.connectReconnectOnConnect(options);
    } catch (IOException e) {
      throw unavailable("could not be connected to: " + e.getClass().getSimpleName(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("was interrupted while connecting", e);
    }
    if (connection.getStatus() == Connection.Status.CONNECTED) {
      ensureStream();
    }
  }

  private void connectionEvent(Connection source, ConnectionListener.Events event) {
    switch (event) {
      case DISCONNECTED -> {
        if (!down) {
          down = true;
          LOG.warning(
              () -> "Lost the connection to NATS at " + settings.shownUrl() + "; reconnecting");
        }
      }
      case CONNECTED, RECONNECTED -> {
        if (down) {
          down = false;
          LOG.info(() -> "Connected to NATS at " + settings.shownUrl() + " again");
        }
      }
      case CLOSED ->
          LOG.fine(() -> "The connection to NATS at " + settings.shownUrl() + " is closed");
      default -> {}
    }
  }

  /** Whether the server answered a round trip within the probe interval (cached). */
  boolean reachable() {
    Connection current = connection;
    if (current == null || current.getStatus() != Connection.Status.CONNECTED) {
      return false;
    }
    Instant now = clock.instant();
    if (probedAt.plus(settings.probeInterval()).isAfter(now)) {
      return lastProbe;
    }
    boolean answered;
    try {
      answered = current.RTT().compareTo(PROBE_BOUND) < 0;
    } catch (IOException | RuntimeException e) {
      answered = false;
    }
    lastProbe = answered;
    probedAt = clock.instant();
    return answered;
  }

  Connection connection() {
    Connection current = connection;
    if (current == null) {
      throw new MailboxException(ErrorCode.NOT_STARTED, "The nats: provider is not started.");
    }
    return current;
  }

  JetStream jetStream() {
    try {
      return connection().jetStream();
    } catch (IOException e) {
      throw unavailable("refused JetStream", e);
    }
  }

  JetStreamManagement management() {
    try {
      return connection().jetStreamManagement();
    } catch (IOException e) {
      throw unavailable("refused JetStream management", e);
    }
  }

  /**
   * Makes sure the stream exists and captures the provider's subjects: found, or created with the
   * explicit subject {@code <prefix>.>} when {@code natsCreateStream} is on; else {@code MBX-2007}
   * naming the stream and both remedies. An existing stream is never changed.
   */
  void ensureStream() {
    if (streamReady) {
      return;
    }
    var server = connection().getServerInfo();
    if (server != null && !server.isJetStreamAvailable()) {
      throw prerequisite(
          "The NATS server at "
              + settings.shownUrl()
              + " (version "
              + server.getVersion()
              + ") has no JetStream: start it with -js (or jetstream {} in its configuration).",
          null);
    }
    try {
      StreamInfo info = management().getStreamInfo(settings.stream());
      if (!info.getConfiguration().getSubjects().contains(settings.streamSubjects())) {
        throw prerequisite(
            "NATS stream "
                + settings.stream()
                + " does not capture "
                + settings.streamSubjects()
                + " (its subjects: "
                + info.getConfiguration().getSubjects()
                + "): add that subject to it, or name another stream (natsStream).",
            null);
      }
    } catch (JetStreamApiException e) {
      if (isJetStreamMissing(e)) {
        throw prerequisite(
            "The NATS server at "
                + settings.shownUrl()
                + " has no JetStream: start it with -js (or jetstream {} in its configuration).",
            e);
      }
      if (e.getApiErrorCode() != STREAM_NOT_FOUND) {
        throw unavailable("refused to describe stream " + settings.stream(), e);
      }
      createStream(e);
    } catch (IOException e) {
      throw unavailable("did not describe stream " + settings.stream(), e);
    }
    streamReady = true;
  }

  private void createStream(JetStreamApiException notFound) {
    if (!settings.createStream()) {
      throw prerequisite(
          "NATS has no stream "
              + settings.stream()
              + " and natsCreateStream is false: create it with the subject "
              + settings.streamSubjects()
              + ", or let the provider create it (natsCreateStream=true).",
          notFound);
    }
    try {
      management()
          .addStream(
              StreamConfiguration.builder()
                  .name(settings.stream())
                  .subjects(settings.streamSubjects())
                  .storageType(StorageType.File)
                  .build());
      LOG.info(
          () -> "Created NATS stream " + settings.stream() + " on " + settings.streamSubjects());
    } catch (JetStreamApiException e) {
      if (isJetStreamMissing(e)) {
        throw prerequisite("The NATS server at " + settings.shownUrl() + " has no JetStream.", e);
      }
      LOG.log(Level.FINE, "Stream creation answered (another server may have made it)", e);
    } catch (IOException e) {
      throw unavailable("did not create stream " + settings.stream(), e);
    }
  }

  /**
   * The durable consumer of {@code group} on {@code address}, created when missing with delivery
   * starting at messages stored after it. An existing consumer of that name that records another
   * group or address (its description) is refused with {@code MBX-2008} naming both.
   */
  String ensureConsumer(String group, MailAddress address) {
    String name = names.consumer(group, address);
    String owner = owner(group, address);
    String here = ownersHere.putIfAbsent(name, owner);
    if (here != null && !here.equals(owner)) {
      throw collision(name, owner, here);
    }
    if (consumers.contains(name)) {
      return name;
    }
    ensureStream();
    JetStreamManagement management = management();
    try {
      ConsumerInfo existing = management.getConsumerInfo(settings.stream(), name);
      String recorded = existing.getConsumerConfiguration().getDescription();
      if (!owner.equals(recorded)) {
        throw collision(name, owner, recorded == null ? "(a consumer made by others)" : recorded);
      }
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != CONSUMER_NOT_FOUND) {
        throw unavailable("refused to describe consumer " + name, e);
      }
      create(management, name, owner, names.subject(address));
    } catch (IOException e) {
      throw unavailable("did not describe consumer " + name, e);
    }
    consumers.add(name);
    return name;
  }

  private void create(JetStreamManagement management, String name, String owner, String subject) {
    try {
      management.addOrUpdateConsumer(
          settings.stream(),
          ConsumerConfiguration.builder()
              .durable(name)
              .description(owner)
              .filterSubject(subject)
              .deliverPolicy(DeliverPolicy.New)
              .ackPolicy(AckPolicy.Explicit)
              .ackWait(settings.ackWait())
              .maxDeliver(-1) // the provider dead-letters at its cap; the server never drops one
              .maxAckPending(MAX_ACK_PENDING)
              .build());
    } catch (JetStreamApiException e) {
      throw unavailable("refused to create consumer " + name, e);
    } catch (IOException e) {
      throw unavailable("did not create consumer " + name, e);
    }
  }

  /** The consumer's numbers now, or empty when it does not exist (or the server is away). */
  Optional<ConsumerInfo> consumerInfo(String name) {
    try {
      return Optional.of(management().getConsumerInfo(settings.stream(), name));
    } catch (JetStreamApiException | IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The addresses of the provider's durable consumers (by their recorded owner), any server's. */
  Set<MailAddress> ownedAddresses() {
    Set<MailAddress> addresses = new TreeSet<>();
    try {
      for (ConsumerInfo info : management().getConsumers(settings.stream())) {
        String owner = info.getConsumerConfiguration().getDescription();
        int at = owner == null ? -1 : owner.indexOf(" address ");
        if (owner != null && owner.startsWith(OWNER_PREFIX) && at > 0) {
          try {
            addresses.add(MailAddress.parse(owner.substring(at + " address ".length())));
          } catch (RuntimeException notOurs) {
            // a description that only looks like ours
          }
        }
      }
    } catch (JetStreamApiException | IOException | RuntimeException e) {
      LOG.fine(() -> "NATS consumers not listed: " + e.getMessage());
    }
    return addresses;
  }

  /** Deletes every stored message of {@code subject}; returns how many went. */
  long purge(String subject) {
    try {
      return management().purgeStream(settings.stream(), PurgeOptions.subject(subject)).getPurged();
    } catch (JetStreamApiException | IOException e) {
      throw unavailable("did not purge " + subject, e);
    }
  }

  private static final String OWNER_PREFIX = "mailbox group ";

  /** What a consumer's description records: its group and address, raw. */
  static String owner(String group, MailAddress address) {
    return OWNER_PREFIX + group + " address " + address;
  }

  private static boolean isJetStreamMissing(JetStreamApiException e) {
    return e.getErrorCode() == 503
        || e.getApiErrorCode() == JETSTREAM_NOT_ENABLED
        || e.getApiErrorCode() == JETSTREAM_NOT_ENABLED_FOR_ACCOUNT;
  }

  private static MailboxException collision(String name, String wanted, String existing) {
    return new MailboxException(
        ErrorCode.CONSUMER_NAME_COLLISION,
        "NATS durable consumer "
            + name
            + " would serve '"
            + wanted
            + "', but it belongs to '"
            + existing
            + "': two groups would split one consumer's messages. Use another group"
            + " (natsDefaultGroup), or delete the other consumer. Nothing was read.");
  }

  private MailboxException prerequisite(String what, Throwable cause) {
    return new MailboxException(ErrorCode.BROKER_PREREQUISITE, what, cause);
  }

  MailboxException unavailable(String what, Throwable cause) {
    String detail =
        cause instanceof JetStreamApiException api
            ? " (" + api.getErrorCode() + "/" + api.getApiErrorCode() + ")"
            : cause == null ? "" : " (" + cause.getClass().getSimpleName() + ")";
    return new MailboxException(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "NATS at " + settings.shownUrl() + " " + what + detail + ".",
        cause);
  }

  @Override
  public void close() {
    Connection closing = connection;
    connection = null;
    consumers.clear();
    streamReady = false;
    if (closing != null) {
      try {
        closing.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
