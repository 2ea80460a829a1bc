package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.ErrorCode;
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
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
  private volatile Connection connection;
  private volatile java.util.concurrent.CountDownLatch connected =
      new java.util.concurrent.CountDownLatch(1);
  private final DurableConsumers consumers;
  private volatile boolean streamReady;
  private volatile boolean down;
  private volatile Instant probedAt = Instant.MIN;
  private volatile boolean lastProbe;

  NatsLink(NatsSettings settings, SubjectNames names, Clock clock) {
    this.settings = settings;
    this.names = names;
    this.clock = clock;
    this.consumers = new DurableConsumers(this, settings, names);
  }

  /**
   * Connects in the background, reconnecting until the server answers (the adapter starts anyway,
   * and so do the other providers); when it answers within a moment, checks JetStream and the
   * stream at once, so that a server without JetStream stops the start with {@code MBX-2007}.
   */
  void start() {
    close(); // a provider started again: never two connections with their reconnect loops
    Options options =
        new Options.Builder()
            .servers(settings.url().split(","))
            .connectionName("mailbox")
            .connectionTimeout(CONNECT_BOUND)
            .maxReconnects(settings.maxReconnects())
            .reconnectWait(settings.reconnectWait())
            .connectionListener(this::connectionEvent)
            .errorListener(
                new ErrorListener() {
                  @Override
                  public void errorOccurred(Connection source, String error) {
                    // The server's own words (authorization violation, ...): no secret in them.
                    LOG.warning(() -> "NATS at " + settings.shownUrl() + " says: " + error);
                  }
                })
            .build();
    connected = new java.util.concurrent.CountDownLatch(1);
    try {
      Nats.connectAsynchronously(options, true);
      connected.await(CONNECT_BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("was interrupted while connecting", e);
    }
    Connection current = connection;
    if (current != null && current.getStatus() == Connection.Status.CONNECTED) {
      ensureStream();
    } else {
      LOG.warning(
          () ->
              "NATS at "
                  + settings.shownUrl()
                  + " does not answer yet; the nats: provider connects when it does");
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
        connection = source;
        // The server may have come back without its state (a store lost, a stream or consumer
        // deleted): look for them again rather than trust what was found before.
        forgetWhatWasFound();
        connected.countDown();
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

  private void forgetWhatWasFound() {
    streamReady = false;
    consumers.forgetFound();
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
      throw unavailable("is not connected (yet)", null);
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

  /** The durable consumers of the provider's addresses. */
  DurableConsumers consumers() {
    return consumers;
  }

  /** Deletes every stored message of {@code subject}; returns how many went. */
  long purge(String subject) {
    try {
      return management().purgeStream(settings.stream(), PurgeOptions.subject(subject)).getPurged();
    } catch (JetStreamApiException | IOException e) {
      throw unavailable("did not purge " + subject, e);
    }
  }

  private static boolean isJetStreamMissing(JetStreamApiException e) {
    return e.getErrorCode() == 503
        || e.getApiErrorCode() == JETSTREAM_NOT_ENABLED
        || e.getApiErrorCode() == JETSTREAM_NOT_ENABLED_FOR_ACCOUNT;
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
    consumers.forgetAll();
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
