package io.mailbox.connector.provider.mem;

import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** Builds {@code mem:} for the adapter (found through {@code META-INF/services}). */
public final class MemoryProviderFactory
    implements ProviderFactory<MemoryProviderFactory.Configuration> {
  static final Setting SCOPE =
      Setting.text(
          "memoryScope",
          "mailbox",
          "The mem: bus scope. Queues outlive an adapter stop/start in the same class loader; two"
              + " adapters with the same scope share queues.");
  static final Setting LEASE_SWEEP =
      Setting.millis(
          "leaseSweepIntervalMillis",
          5_000,
          "How often expired leases are reclaimed on a clock; 0 = only lazily (next manual-ack"
              + " fetch) and by recover().");

  /** The checked settings. */
  public record Configuration(String scope, Duration leaseSweep) {}

  @Override
  public String scheme() {
    return MemoryProvider.SCHEME;
  }

  @Override
  public List<Setting> settings() {
    return List.of(SCOPE, LEASE_SWEEP);
  }

  @Override
  public Configuration configure(ProviderSettings settings) {
    String scope = settings.text(SCOPE);
    if (scope == null || scope.isBlank()) {
      throw ProviderSettings.invalid(SCOPE, "must not be empty");
    }
    return new Configuration(scope.strip(), settings.millis(LEASE_SWEEP));
  }

  @Override
  public Transport create(Configuration configuration, Scheduler scheduler) {
    return new MemoryProvider(
        MemoryBus.scope(configuration.scope()),
        Clock.systemUTC(),
        scheduler,
        configuration.leaseSweep());
  }
}
