package io.mailbox.connector.jca;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.RetryPolicy;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The adapter's configuration as validated values. Every property is declared once, with its
 * default and description, in {@code META-INF/ra.xml}; the bean setters on {@link
 * MailboxResourceAdapter} only store text and numbers, and this record turns them into policies (or
 * refuses them with {@code MBX-1008}) when the adapter starts.
 */
record AdapterSettings(
    List<String> enabledProviders,
    String memoryScope,
    java.nio.file.Path fileRoot,
    java.nio.file.Path prepareLogDirectory,
    String jdbcDataSource,
    int jdbcMaxDeliveries,
    Duration jdbcTimeToLive,
    Duration jdbcDedupeWindow,
    Duration jdbcSubscriberPoll,
    io.mailbox.connector.provider.amqp.AmqpSettings amqp,
    Optional<RetryPolicy> retryPolicy,
    Optional<DeadLetterPolicy> deadLetterPolicy,
    Duration defaultAckTimeout,
    Duration leaseSweepInterval,
    Duration deliverySettleTimeout) {

  static AdapterSettings of(MailboxResourceAdapter adapter) {
    List<String> providers =
        Arrays.stream(adapter.getEnabledProviders().split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .map(s -> s.toLowerCase(Locale.ROOT))
            .distinct()
            .toList();
    int attempts = nonNegative("retryMaxAttempts", adapter.getRetryMaxAttempts());
    Optional<RetryPolicy> retry =
        attempts == 0
            ? Optional.empty()
            : Optional.of(
                new RetryPolicy(
                    attempts,
                    millis("retryBaseDelayMillis", adapter.getRetryBaseDelayMillis()),
                    millis("retryMaxDelayMillis", adapter.getRetryMaxDelayMillis())));
    Optional<DeadLetterPolicy> deadLetters =
        Boolean.TRUE.equals(adapter.getDeadLetterEnabled())
            ? Optional.of(
                new DeadLetterPolicy(
                    adapter.getDeadLetterSuffix(), adapter.getDeadLetterMaxNesting()))
            : Optional.empty();
    String scope = adapter.getMemoryScope();
    if (scope == null || scope.isBlank()) {
      throw invalid("memoryScope", String.valueOf(scope));
    }
    return new AdapterSettings(
        providers,
        scope.strip(),
        fileRoot(adapter.getFileRoot()),
        prepareLogDirectory(adapter.getPrepareLogDirectory()),
        adapter.getJdbcDataSource() == null
            ? "jdbc/__default"
            : adapter.getJdbcDataSource().strip(),
        nonNegative("jdbcMaxDeliveries", adapter.getJdbcMaxDeliveries()),
        millis("jdbcTimeToLiveMillis", adapter.getJdbcTimeToLiveMillis()),
        millis("jdbcDedupeWindowMillis", adapter.getJdbcDedupeWindowMillis()),
        positiveMillis("jdbcSubscriberPollMillis", adapter.getJdbcSubscriberPollMillis()),
        amqp(adapter),
        retry,
        deadLetters,
        millis("defaultAckTimeoutMillis", adapter.getDefaultAckTimeoutMillis()),
        millis("leaseSweepIntervalMillis", adapter.getLeaseSweepIntervalMillis()),
        millis("deliverySettleTimeoutMillis", adapter.getDeliverySettleTimeoutMillis()));
  }

  /** The amqp: provider's settings; they validate themselves (MBX-1008, never echoing the URI). */
  private static io.mailbox.connector.provider.amqp.AmqpSettings amqp(
      MailboxResourceAdapter adapter) {
    var defaults = io.mailbox.connector.provider.amqp.AmqpSettings.defaults();
    return new io.mailbox.connector.provider.amqp.AmqpSettings(
        adapter.getAmqpUri() == null ? defaults.uri() : adapter.getAmqpUri(),
        adapter.getAmqpPrefetch() == null ? -1 : adapter.getAmqpPrefetch(),
        millis("amqpPublishTimeoutMillis", adapter.getAmqpPublishTimeoutMillis()),
        io.mailbox.connector.provider.amqp.AmqpSettings.parseDelays(
            adapter.getAmqpRetryDelaysMillis()),
        nonNegative("amqpMaxDeliveries", adapter.getAmqpMaxDeliveries()),
        defaults.probeInterval());
  }

  /** The mail folder of the file: provider; empty means {@code <working directory>/data/mail}. */
  private static java.nio.file.Path fileRoot(String configured) {
    String root = configured == null || configured.isBlank() ? "data/mail" : configured.strip();
    try {
      return java.nio.file.Path.of(root).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException e) {
      // A NUL or a character the file system cannot name (found by AdapterSettingsFuzzTest).
      throw invalid("fileRoot", "not a path on this file system");
    }
  }

  /**
   * Where a transaction branch's posts are written when it votes yes; empty means {@code <working
   * directory>/data/prepare-log}, beside the file: provider's {@code data/mail}. Refused when it
   * names something that is not a directory.
   */
  private static java.nio.file.Path prepareLogDirectory(String configured) {
    String folder =
        configured == null || configured.isBlank() ? "data/prepare-log" : configured.strip();
    java.nio.file.Path path;
    try {
      path = java.nio.file.Path.of(folder).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException e) {
      throw invalid("prepareLogDirectory", folder);
    }
    if (java.nio.file.Files.exists(path) && !java.nio.file.Files.isDirectory(path)) {
      throw invalid("prepareLogDirectory", folder);
    }
    return path;
  }

  private static int nonNegative(String name, Integer value) {
    if (value == null || value < 0) {
      throw invalid(name, String.valueOf(value));
    }
    return value;
  }

  private static Duration millis(String name, Long value) {
    if (value == null || value < 0) {
      throw invalid(name, String.valueOf(value));
    }
    return Duration.ofMillis(value);
  }

  private static Duration positiveMillis(String name, Long value) {
    if (value == null || value <= 0) {
      throw invalid(name, String.valueOf(value));
    }
    return Duration.ofMillis(value);
  }

  private static MailboxException invalid(String name, String value) {
    return new MailboxException(
        ErrorCode.INVALID_POLICY,
        "Adapter property "
            + name
            + " is invalid ("
            + value
            + "); see META-INF/ra.xml for its range.");
  }
}
