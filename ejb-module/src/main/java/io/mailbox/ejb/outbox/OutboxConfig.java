package io.mailbox.ejb.outbox;

import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The outbox's MicroProfile Config keys, declared once here with their defaults (docs/outbox.md).
 */
final class OutboxConfig {
  /** Address a topic is published to, unless routed: {topic} is replaced. */
  static final String ADDRESS_TEMPLATE = "mailbox.outbox.address-template";

  static final String DEFAULT_ADDRESS_TEMPLATE = "mem:events@mailbox/{topic}";

  /** Per-topic route: {@code mailbox.outbox.route.<topic>=<address>}. */
  static final String ROUTE_PREFIX = "mailbox.outbox.route.";

  /** Whether this application relays (any number of instances may). */
  static final String RELAY_ENABLED = "mailbox.outbox.relay.enabled";

  /** Sweep interval in ms. */
  static final String RELAY_INTERVAL = "mailbox.outbox.relay.interval-ms";

  /** Failed publishes before a row is failed. */
  static final String MAX_ATTEMPTS = "mailbox.outbox.relay.max-attempts";

  /** How long sent rows are kept, in hours. */
  static final String RETAIN_HOURS = "mailbox.outbox.retain-sent-hours";

  /** How long inbox markers are kept, in hours. */
  static final String INBOX_RETAIN_HOURS = "mailbox.inbox.retain-hours";

  private final Config config = ConfigProvider.getConfig();

  Duration inboxRetention() {
    return Duration.ofHours(
        Math.max(1, config.getOptionalValue(INBOX_RETAIN_HOURS, Long.class).orElse(168L)));
  }

  String addressFor(String topic) {
    Optional<String> route = config.getOptionalValue(ROUTE_PREFIX + topic, String.class);
    return route.orElseGet(
        () ->
            config
                .getOptionalValue(ADDRESS_TEMPLATE, String.class)
                .orElse(DEFAULT_ADDRESS_TEMPLATE)
                .replace("{topic}", topic));
  }

  boolean relayEnabled() {
    return config.getOptionalValue(RELAY_ENABLED, Boolean.class).orElse(true);
  }

  Duration relayInterval() {
    return Duration.ofMillis(config.getOptionalValue(RELAY_INTERVAL, Long.class).orElse(1000L));
  }

  RelaySettings relaySettings() {
    RelaySettings defaults = RelaySettings.defaults();
    int attempts =
        config.getOptionalValue(MAX_ATTEMPTS, Integer.class).orElse(defaults.maxAttempts());
    long retainHours =
        config.getOptionalValue(RETAIN_HOURS, Long.class).orElse(defaults.retainSent().toHours());
    RelaySettings tuned = defaults.withAttempts(attempts, defaults.baseBackoff());
    return new RelaySettings(
        tuned.scanLimit(),
        tuned.publishLimit(),
        tuned.maxAttempts(),
        tuned.baseBackoff(),
        tuned.maxBackoff(),
        tuned.claimLease(),
        tuned.maxClockSkew(),
        tuned.publishTimeout(),
        tuned.storeTimeout(),
        tuned.sweepDeadline(),
        tuned.maxEnvelopeBytes(),
        Duration.ofHours(retainHours));
  }
}
