package io.mailbox.connector.provider.redis;

import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Builds {@code redis:} for the adapter (found through {@code META-INF/services}). Its settings go
 * in the adapter property {@code providerSettings}, for example {@code
 * redisUrl=redis://cache:6379;redisLeaseMillis=60000}.
 */
public final class RedisProviderFactory implements ProviderFactory<RedisSettings> {
  private static final RedisSettings DEFAULTS = RedisSettings.defaults();

  static final Setting URL =
      Setting.text(
          "redisUrl",
          DEFAULTS.url(),
          "redis: the server, redis://[[user]:password@]host:port[/db] (rediss:// for TLS).");
  static final Setting KEY_PREFIX =
      Setting.text(
          "redisKeyPrefix",
          DEFAULTS.keyPrefix(),
          "redis: the start of every stream key, <prefix>:{<mailbox>}.");
  static final Setting DEFAULT_GROUP =
      Setting.text(
          "redisDefaultGroup",
          DEFAULTS.defaultGroup(),
          "redis: the consumer group that reads every address (shared by every server).");
  static final Setting PUBLISH_TIMEOUT =
      Setting.millis(
          "redisPublishTimeoutMillis", 15_000, "redis: how long a post waits for its XADD, in ms.");
  static final Setting BLOCK =
      Setting.millis(
          "redisBlockMillis",
          DEFAULTS.blockTime().toMillis(),
          "redis: how long a subscriber's read blocks for new entries, in ms (positive).");
  static final Setting LEASE =
      Setting.millis(
          "redisLeaseMillis",
          DEFAULTS.lease().toMillis(),
          "redis: how long an entry stays pending with a silent consumer before another reclaims"
              + " it, in ms.");
  static final Setting MAX_DELIVERIES =
      Setting.integer(
          "redisMaxDeliveries",
          DEFAULTS.maxDeliveries(),
          "redis: deliveries an entry gets before it is dead-lettered (max-deliveries); 0 = no"
              + " cap.");
  static final Setting MAX_LENGTH =
      Setting.integer(
          "redisMaxLength",
          0,
          "redis: keep each stream at about this many entries (XADD MAXLEN ~, drops the oldest,"
              + " read or not); 0 = never trim.");

  @Override
  public String scheme() {
    return RedisProvider.SCHEME;
  }

  @Override
  public List<Setting> settings() {
    return List.of(
        URL, KEY_PREFIX, DEFAULT_GROUP, PUBLISH_TIMEOUT, BLOCK, LEASE, MAX_DELIVERIES, MAX_LENGTH);
  }

  @Override
  public RedisSettings configure(ProviderSettings settings) {
    return new RedisSettings(
        settings.text(URL),
        settings.text(KEY_PREFIX),
        settings.text(DEFAULT_GROUP),
        settings.positiveMillis(PUBLISH_TIMEOUT),
        settings.positiveMillis(BLOCK),
        settings.positiveMillis(LEASE),
        settings.integer(MAX_DELIVERIES, 0),
        settings.integer(MAX_LENGTH, 0),
        Duration.ofSeconds(2));
  }

  @Override
  public Transport create(RedisSettings settings, Scheduler scheduler) {
    return new RedisProvider(settings, Clock.systemUTC(), scheduler);
  }
}
