package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
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

  /** Longest retention either key accepts: 100 years, far inside what a duration can count. */
  static final long MAX_RETAIN_HOURS = 876_000;

  private final Config config;
  private final Duration relayInterval;
  private final RelaySettings relaySettings;
  private final Duration inboxRetention;

  OutboxConfig() {
    this(ConfigProvider.getConfig());
  }

  /**
   * Reads and checks every number now, so that a wrong one stops the bean that builds this (the
   * relay service, at application start) instead of failing a later sweep or purge.
   *
   * @throws MailboxException {@code MBX-1008} naming the first key out of range
   */
  OutboxConfig(Config config) {
    this.config = config;
    this.relayInterval = Duration.ofMillis(number(RELAY_INTERVAL, 1000, 1, Long.MAX_VALUE));
    this.relaySettings = readRelaySettings();
    this.inboxRetention = Duration.ofHours(number(INBOX_RETAIN_HOURS, 168, 1, MAX_RETAIN_HOURS));
  }

  Duration inboxRetention() {
    return inboxRetention;
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
    return relayInterval;
  }

  RelaySettings relaySettings() {
    return relaySettings;
  }

  private RelaySettings readRelaySettings() {
    RelaySettings defaults = RelaySettings.defaults();
    int attempts = (int) number(MAX_ATTEMPTS, defaults.maxAttempts(), 1, Integer.MAX_VALUE);
    long retainHours = number(RETAIN_HOURS, defaults.retainSent().toHours(), 0, MAX_RETAIN_HOURS);
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

  /**
   * The key's whole number within [min, max], its default when unset. Read as text and parsed here,
   * so that a wrong value is refused with the key's name and a stable code, never clamped, wrapped
   * or left to a converter's own exception.
   */
  private long number(String key, long defaultValue, long min, long max) {
    Optional<String> text = config.getOptionalValue(key, String.class);
    if (text.isEmpty() || text.get().isBlank()) {
      return defaultValue;
    }
    try {
      long value = Long.parseLong(text.get().trim());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // refused below, like a number out of range
    }
    throw refused(key, min, max);
  }

  private static MailboxException refused(String key, long min, long max) {
    return new MailboxException(
        ErrorCode.INVALID_POLICY,
        key
            + " must be a whole number from "
            + min
            + (max == Long.MAX_VALUE ? " up" : " to " + max)
            + "; fix the setting and restart.");
  }
}
