package io.mailbox.connector.provider.redis;

import io.mailbox.connector.spi.ProviderSettings;
import java.net.URI;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What the {@code redis:} provider needs to know, checked before anything connects.
 *
 * @param url the server, {@code redis://[[user]:password@]host:port[/db]} ({@code rediss://} for
 *     TLS)
 * @param keyPrefix the start of every stream key: {@code <prefix>:{<mailbox>}}
 * @param defaultGroup the consumer group that reads every address (shared by every server)
 * @param publishTimeout how long a post waits for Redis to answer its XADD
 * @param blockTime how long a subscriber's read waits on Redis for new entries (positive: a read
 *     that blocked forever could still take an entry after it was abandoned)
 * @param lease how long an entry may stay pending with a consumer that does not touch it before
 *     another consumer reclaims it (the lease of a consumer that crashed)
 * @param maxDeliveries deliveries an entry gets before it is dead-lettered; 0 = no cap
 * @param maxLength each stream kept at about this many entries (XADD MAXLEN ~); 0 = never trimmed
 * @param probeInterval how long a reachability probe's answer is reused
 */
public record RedisSettings(
    String url,
    String keyPrefix,
    String defaultGroup,
    Duration publishTimeout,
    Duration blockTime,
    Duration lease,
    int maxDeliveries,
    long maxLength,
    Duration probeInterval) {

  private static final Pattern URL =
      Pattern.compile("rediss?://([^@/\\s]*@)?[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5}(/\\d{1,2})?");
  private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  public RedisSettings {
    if (url == null || !URL.matcher(url.strip()).matches()) {
      throw ProviderSettings.invalid(
          "redisUrl", "must be redis://[[user]:password@]host:port[/db] (rediss:// for TLS)");
    }
    url = url.strip();
    if (keyPrefix == null || !PREFIX.matcher(keyPrefix).matches()) {
      throw ProviderSettings.invalid("redisKeyPrefix", "must be 1 to 64 of A-Z, a-z, 0-9, _ . -");
    }
    if (defaultGroup == null
        || defaultGroup.isBlank()
        || defaultGroup.length() > 64
        || defaultGroup.chars().anyMatch(c -> Character.isISOControl(c) || c == ' ')) {
      throw ProviderSettings.invalid(
          "redisDefaultGroup", "must be 1 to 64 characters without spaces or control characters");
    }
    if (publishTimeout == null || publishTimeout.isNegative() || publishTimeout.isZero()) {
      throw ProviderSettings.invalid("redisPublishTimeoutMillis", "must be more than zero");
    }
    if (blockTime == null || blockTime.toMillis() < 1 || blockTime.toMillis() > 60_000) {
      throw ProviderSettings.invalid(
          "redisBlockMillis", "must be 1 to 60000 (0 would block forever)");
    }
    if (lease == null || lease.toMillis() < 1_000) {
      throw ProviderSettings.invalid("redisLeaseMillis", "must be 1000 or more");
    }
    if (maxDeliveries < 0) {
      throw ProviderSettings.invalid("redisMaxDeliveries", "must be zero or more");
    }
    if (maxLength < 0) {
      throw ProviderSettings.invalid("redisMaxLength", "must be zero (never trimmed) or more");
    }
  }

  /**
   * A local server, prefix {@code mailbox}, group {@code mailbox}, a 15 s bound, reads blocking for
   * 500 ms, a 30 s lease, 10 deliveries, no trimming.
   */
  public static RedisSettings defaults() {
    return new RedisSettings(
        "redis://127.0.0.1:6379",
        "mailbox",
        "mailbox",
        Duration.ofSeconds(15),
        Duration.ofMillis(500),
        Duration.ofSeconds(30),
        10,
        0,
        Duration.ofSeconds(2));
  }

  public RedisSettings withUrl(String newUrl) {
    return new RedisSettings(
        newUrl,
        keyPrefix,
        defaultGroup,
        publishTimeout,
        blockTime,
        lease,
        maxDeliveries,
        maxLength,
        probeInterval);
  }

  public RedisSettings withKeyPrefix(String prefix) {
    return new RedisSettings(
        url,
        prefix,
        defaultGroup,
        publishTimeout,
        blockTime,
        lease,
        maxDeliveries,
        maxLength,
        probeInterval);
  }

  public RedisSettings withLease(Duration newLease) {
    return new RedisSettings(
        url,
        keyPrefix,
        defaultGroup,
        publishTimeout,
        blockTime,
        newLease,
        maxDeliveries,
        maxLength,
        probeInterval);
  }

  public RedisSettings withMaxDeliveries(int deliveries) {
    return new RedisSettings(
        url,
        keyPrefix,
        defaultGroup,
        publishTimeout,
        blockTime,
        lease,
        deliveries,
        maxLength,
        probeInterval);
  }

  public RedisSettings withPublishTimeout(Duration timeout) {
    return new RedisSettings(
        url,
        keyPrefix,
        defaultGroup,
        timeout,
        blockTime,
        lease,
        maxDeliveries,
        maxLength,
        probeInterval);
  }

  public RedisSettings withMaxLength(long length) {
    return new RedisSettings(
        url,
        keyPrefix,
        defaultGroup,
        publishTimeout,
        blockTime,
        lease,
        maxDeliveries,
        length,
        probeInterval);
  }

  /** The server as a URI (credentials included: never logged, see {@link #shownUrl}). */
  URI uri() {
    return URI.create(url);
  }

  /** The URL as logs and errors show it: a user and password in it masked. */
  String shownUrl() {
    return url.replaceAll("//[^/@]*@", "//***@");
  }

  /** The settings with any password in the URL masked (it never reaches a log). */
  @Override
  public String toString() {
    return "RedisSettings[url="
        + shownUrl()
        + ", keyPrefix="
        + keyPrefix
        + ", defaultGroup="
        + defaultGroup
        + ", publishTimeout="
        + publishTimeout
        + ", blockTime="
        + blockTime
        + ", lease="
        + lease
        + ", maxDeliveries="
        + maxDeliveries
        + ", maxLength="
        + maxLength
        + "]";
  }
}
