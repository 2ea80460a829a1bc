package io.mailbox.connector.jca;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.RetryPolicy;
import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.PublishBound;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The adapter's configuration as checked values: the kernel's own settings (declared in {@link
 * #DECLARED}) and every provider found, configured by its factory from its declared settings. A bad
 * value is refused with {@code MBX-1008} naming the property, an unknown scheme in {@code
 * enabledProviders} with {@code MBX-1003} naming the schemes there are — before anything starts.
 *
 * @param providers every provider factory found, configured (enabled or not), by scheme
 */
record AdapterSettings(
    List<String> enabledProviders,
    Path prepareLogDirectory,
    Optional<RetryPolicy> retryPolicy,
    Optional<DeadLetterPolicy> deadLetterPolicy,
    Duration defaultAckTimeout,
    Duration deliverySettleTimeout,
    Duration publishTimeout,
    Map<String, ConfiguredProvider<?>> providers) {

  /** The kernel's and the adapter's own settings; each provider declares its own. */
  static final List<Setting> DECLARED =
      List.of(
          Setting.text(
              "enabledProviders",
              "mem",
              "Comma-separated schemes of the providers to start. An unknown scheme stops the"
                  + " adapter (MBX-1003)."),
          Setting.text(
              "prepareLogDirectory",
              "",
              "Where posts held by a JTA transaction are written when the branch votes yes; empty"
                  + " means data/prepare-log under the server's working directory."),
          Setting.text(
              "providerSettings",
              "",
              "Settings of providers not shipped with the adapter: name=value pairs separated by"
                  + " ';' (a ';' in a value written '\\;')."),
          Setting.integer(
              "retryMaxAttempts",
              0,
              "Attempts per subscriber delivery before the message goes back to its queue; 0 = no"
                  + " automatic retry."),
          Setting.millis(
              "retryBaseDelayMillis", 1_000, "First retry backoff; doubles per attempt."),
          Setting.millis("retryMaxDelayMillis", 60_000, "Longest retry backoff."),
          new Setting(
              "deadLetterEnabled",
              Boolean.class,
              "true",
              "Archive given-up messages to <address><deadLetterSuffix> (false: drop them with a"
                  + " warning)."),
          Setting.text(
              "deadLetterSuffix", "_dlq", "Suffix appended to the address path for dead letters."),
          Setting.integer(
              "deadLetterMaxNesting",
              1,
              "Dead-letter levels; a record given up at the cap is parked."),
          Setting.millis(
              "defaultAckTimeoutMillis",
              30_000,
              "Lease of a manual-ack fetch that names none; 0 = never expires."),
          Setting.millis(
              "deliverySettleTimeoutMillis",
              30_000,
              "Watchdog per subscriber delivery attempt; 0 = off."),
          Setting.millis(
              "publishTimeoutMillis",
              PublishBound.DEFAULT.toMillis(),
              "Publish bound of a provider that has none of its own (each shipped provider has its"
                  + " own setting); 0 = none."));

  /** A provider factory with its checked configuration, ready to build the provider. */
  record ConfiguredProvider<C>(ProviderFactory<C> factory, C configuration) {
    MailboxProvider create(Scheduler scheduler) {
      return MailboxProvider.of(factory.create(configuration, scheduler));
    }

    static <C> ConfiguredProvider<C> of(ProviderFactory<C> factory, ProviderSettings settings) {
      return new ConfiguredProvider<>(factory, factory.configure(settings));
    }

    /**
     * A shipped provider's configuration (which masks its secrets, e.g. the broker URI's password),
     * else the scheme and the factory only: another provider's configuration may hold a password.
     */
    @Override
    public String toString() {
      return factory.getClass().getName().startsWith("io.mailbox.connector.provider.")
          ? factory.scheme() + "=" + configuration
          : factory.scheme() + " (" + factory.getClass().getName() + ")";
    }
  }

  /** The adapter's settings with the provider factories on the adapter's class path. */
  static AdapterSettings of(AdapterProperties adapter) {
    return of(adapter, ProviderFactories.discover());
  }

  static AdapterSettings of(AdapterProperties adapter, List<ProviderFactory<?>> factories) {
    List<String> enabled =
        Arrays.stream(Optional.ofNullable(adapter.getEnabledProviders()).orElse("").split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .map(s -> s.toLowerCase(Locale.ROOT))
            .distinct()
            .toList();
    ProviderSettings values = new ProviderSettings(adapter::configured);
    Map<String, ConfiguredProvider<?>> providers = new LinkedHashMap<>();
    for (ProviderFactory<?> factory : factories) {
      providers.put(factory.scheme(), ConfiguredProvider.of(factory, values));
    }
    for (String scheme : enabled) {
      if (!providers.containsKey(scheme)) {
        throw new MailboxException(
            ErrorCode.UNKNOWN_SCHEME,
            "enabledProviders names '"
                + scheme
                + "', for which no provider is installed; available: "
                + providers.keySet());
      }
    }
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
    return new AdapterSettings(
        enabled,
        prepareLogDirectory(adapter.getPrepareLogDirectory()),
        retry,
        deadLetters,
        millis("defaultAckTimeoutMillis", adapter.getDefaultAckTimeoutMillis()),
        millis("deliverySettleTimeoutMillis", adapter.getDeliverySettleTimeoutMillis()),
        millis("publishTimeoutMillis", adapter.getPublishTimeoutMillis()),
        providers);
  }

  /**
   * Where a transaction branch's posts are written when it votes yes; empty means {@code <working
   * directory>/data/prepare-log}, beside the file: provider's {@code data/mail}. Refused when it
   * names something that is not a directory.
   */
  private static Path prepareLogDirectory(String configured) {
    String folder =
        configured == null || configured.isBlank() ? "data/prepare-log" : configured.strip();
    Path path;
    try {
      path = Path.of(folder).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw ProviderSettings.invalid("prepareLogDirectory", "is not a path on this file system");
    }
    if (Files.exists(path) && !Files.isDirectory(path)) {
      throw ProviderSettings.invalid("prepareLogDirectory", "names something that is not a folder");
    }
    return path;
  }

  private static int nonNegative(String name, Integer value) {
    if (value == null || value < 0) {
      throw ProviderSettings.invalid(name, "must be zero or more");
    }
    return value;
  }

  private static Duration millis(String name, Long value) {
    if (value == null || value < 0) {
      throw ProviderSettings.invalid(name, "must be zero or more");
    }
    return Duration.ofMillis(value);
  }
}
