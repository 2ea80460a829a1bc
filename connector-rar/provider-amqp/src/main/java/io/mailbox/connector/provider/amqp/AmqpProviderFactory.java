package io.mailbox.connector.provider.amqp;

import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.time.Clock;
import java.util.List;

/** Builds {@code amqp:} for the adapter (found through {@code META-INF/services}). */
public final class AmqpProviderFactory implements ProviderFactory<AmqpSettings> {
  static final Setting URI =
      Setting.text(
          "amqpUri",
          AmqpSettings.DEFAULT_URI,
          "amqp: the RabbitMQ broker, amqp://user:password@host:port/vhost (amqps:// for TLS)."
              + " Never logged.");
  static final Setting PREFETCH =
      Setting.integer(
          "amqpPrefetch",
          250,
          "amqp: unacknowledged deliveries one subscription's consumer may hold (1-65535).");
  static final Setting PUBLISH_TIMEOUT =
      Setting.millis(
          "amqpPublishTimeoutMillis",
          15_000,
          "amqp: how long a post waits for RabbitMQ's publisher confirm, in ms; 0 = no bound.");
  static final Setting RETRY_DELAYS =
      Setting.text(
          "amqpRetryDelaysMillis",
          "1000,5000,30000",
          "amqp: delays, in ms and non-decreasing, before a copy push consumers could not handle"
              + " is delivered again, per round (the last repeats); empty = straight back.");
  static final Setting MAX_DELIVERIES =
      Setting.integer(
          "amqpMaxDeliveries",
          10,
          "amqp: deliveries a copy gets before it is dead-lettered (reason max-deliveries); 0 = no"
              + " cap.");

  @Override
  public String scheme() {
    return AmqpProvider.SCHEME;
  }

  @Override
  public List<Setting> settings() {
    return List.of(URI, PREFETCH, PUBLISH_TIMEOUT, RETRY_DELAYS, MAX_DELIVERIES);
  }

  /** The settings validate themselves (MBX-1008, never echoing the URI). */
  @Override
  public AmqpSettings configure(ProviderSettings settings) {
    return new AmqpSettings(
        settings.text(URI),
        settings.integer(PREFETCH, 1),
        settings.millis(PUBLISH_TIMEOUT),
        AmqpSettings.parseDelays(settings.text(RETRY_DELAYS)),
        settings.integer(MAX_DELIVERIES, 0),
        AmqpSettings.defaults().probeInterval());
  }

  @Override
  public Transport create(AmqpSettings settings, Scheduler scheduler) {
    return new AmqpProvider(settings, Clock.systemUTC(), scheduler);
  }
}
