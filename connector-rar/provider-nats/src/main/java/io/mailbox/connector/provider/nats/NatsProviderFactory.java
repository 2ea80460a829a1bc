package io.mailbox.connector.provider.nats;

import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Builds {@code nats:} for the adapter (found through {@code META-INF/services}). Its settings go
 * in the adapter property {@code providerSettings}, for example {@code
 * natsUrl=nats://broker:4222;natsCreateStream=true}.
 */
public final class NatsProviderFactory implements ProviderFactory<NatsSettings> {
  private static final NatsSettings DEFAULTS = NatsSettings.defaults();

  static final Setting URL =
      Setting.text("natsUrl", DEFAULTS.url(), "nats: the server, nats://host:port[,...].");
  static final Setting STREAM =
      Setting.text(
          "natsStream", DEFAULTS.stream(), "nats: the JetStream stream that stores the messages.");
  static final Setting SUBJECT_PREFIX =
      Setting.text(
          "natsSubjectPrefix",
          DEFAULTS.subjectPrefix(),
          "nats: the first subject token; the stream captures <prefix>.>.");
  static final Setting DEFAULT_GROUP =
      Setting.text(
          "natsDefaultGroup",
          DEFAULTS.defaultGroup(),
          "nats: the group whose durable consumer reads an address (shared by every server).");
  static final Setting PUBLISH_TIMEOUT =
      Setting.millis(
          "natsPublishTimeoutMillis",
          15_000,
          "nats: how long a post waits for the stream's acknowledgement, in ms.");
  static final Setting CREATE_STREAM =
      Setting.text(
          "natsCreateStream",
          "false",
          "nats: true = create a missing stream with the subject <prefix>.> (never a catch-all).");
  static final Setting ACK_WAIT =
      Setting.millis(
          "natsAckWaitMillis",
          30_000,
          "nats: how long the server waits for an acknowledgement before redelivering, in ms.");
  static final Setting MAX_DELIVERIES =
      Setting.integer(
          "natsMaxDeliveries",
          10,
          "nats: deliveries a message gets before it is dead-lettered (max-deliveries); 0 = no"
              + " cap.");
  static final Setting MAX_RECONNECTS =
      Setting.integer(
          "natsMaxReconnects",
          -1,
          "nats: reconnect attempts after a lost connection; -1 = forever.");
  static final Setting RECONNECT_WAIT =
      Setting.millis(
          "natsReconnectWaitMillis", 2_000, "nats: the pause between reconnect attempts, in ms.");
  static final Setting DEDUPLICATE =
      Setting.text(
          "natsDeduplicateByMessageId",
          "false",
          "nats: true = a post's message id is its JetStream message id (the server drops a"
              + " repeat within its duplicate window).");

  @Override
  public String scheme() {
    return NatsProvider.SCHEME;
  }

  @Override
  public List<Setting> settings() {
    return List.of(
        URL,
        STREAM,
        SUBJECT_PREFIX,
        DEFAULT_GROUP,
        PUBLISH_TIMEOUT,
        CREATE_STREAM,
        ACK_WAIT,
        MAX_DELIVERIES,
        MAX_RECONNECTS,
        RECONNECT_WAIT,
        DEDUPLICATE);
  }

  @Override
  public NatsSettings configure(ProviderSettings settings) {
    return new NatsSettings(
        settings.text(URL),
        settings.text(STREAM),
        settings.text(SUBJECT_PREFIX),
        settings.text(DEFAULT_GROUP),
        settings.positiveMillis(PUBLISH_TIMEOUT),
        bool(settings, CREATE_STREAM),
        settings.positiveMillis(ACK_WAIT),
        settings.integer(MAX_DELIVERIES, 0),
        settings.integer(MAX_RECONNECTS, -1),
        settings.positiveMillis(RECONNECT_WAIT),
        bool(settings, DEDUPLICATE),
        Duration.ofSeconds(2));
  }

  private static boolean bool(ProviderSettings settings, Setting setting) {
    String value = settings.text(setting).strip();
    if (!value.equals("true") && !value.equals("false")) {
      throw ProviderSettings.invalid(setting, "must be true or false");
    }
    return Boolean.parseBoolean(value);
  }

  @Override
  public Transport create(NatsSettings settings, Scheduler scheduler) {
    return new NatsProvider(settings, Clock.systemUTC(), scheduler);
  }
}
