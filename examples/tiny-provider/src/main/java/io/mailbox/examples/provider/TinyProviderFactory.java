package io.mailbox.examples.provider;

import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.util.List;

/**
 * How the adapter finds {@code tiny:}: this class is listed in {@code
 * META-INF/services/io.mailbox.connector.spi.ProviderFactory}; put the jar beside the adapter's (in
 * the rar, or in the EAR's {@code lib/}) and add {@code tiny} to {@code enabledProviders}. Its one
 * setting comes from the adapter property {@code providerSettings} ({@code tinyMaxQueued=1000}).
 */
public final class TinyProviderFactory implements ProviderFactory<Integer> {
  static final Setting MAX_QUEUED =
      Setting.integer(
          "tinyMaxQueued", 10_000, "tiny: messages an address may hold before posts are refused.");

  @Override
  public String scheme() {
    return TinyProvider.SCHEME;
  }

  @Override
  public List<Setting> settings() {
    return List.of(MAX_QUEUED);
  }

  @Override
  public Integer configure(ProviderSettings settings) {
    return settings.integer(MAX_QUEUED, 1);
  }

  @Override
  public Transport create(Integer maxQueued, Scheduler scheduler) {
    return new TinyProvider(maxQueued, scheduler);
  }
}
