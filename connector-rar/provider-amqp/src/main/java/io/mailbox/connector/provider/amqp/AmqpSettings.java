package io.mailbox.connector.provider.amqp;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * What the {@code amqp:} provider needs to know, validated before anything connects.
 *
 * @param uri the broker, {@code amqp://user:password@host:port/vhost}; the password is never logged
 *     or put in an error message
 * @param prefetch unacknowledged deliveries a subscription's consumer may hold (1–65535)
 * @param publishTimeout how long a post waits for RabbitMQ's confirm; zero waits without bound
 * @param retryDelaysMillis the delays of a copy that push consumers could not handle, per round
 *     (the last repeats); empty puts it straight back
 * @param maxDeliveries deliveries a copy gets before it is dead-lettered ({@code max-deliveries});
 *     0 = no cap
 * @param probeInterval how long a reachability probe's answer is reused
 */
public record AmqpSettings(
    String uri,
    int prefetch,
    Duration publishTimeout,
    List<Long> retryDelaysMillis,
    int maxDeliveries,
    Duration probeInterval) {

  public static final String DEFAULT_URI = "amqp://guest:guest@127.0.0.1:5672/%2F";

  public AmqpSettings {
    if (uri == null || uri.isBlank()) {
      throw invalid("amqpUri", "must be set");
    }
    try {
      URI parsed = new URI(uri.strip());
      if (!"amqp".equals(parsed.getScheme()) && !"amqps".equals(parsed.getScheme())) {
        throw invalid("amqpUri", "must start with amqp:// or amqps://");
      }
      // "amqp:xyz" is a URI too (opaque, no host): refused here rather than by the client at
      // every reconnect (found by AdapterSettingsFuzzTest).
      if (parsed.getHost() == null || parsed.getHost().isBlank()) {
        throw invalid("amqpUri", "must name the broker's host: amqp://host:port/vhost");
      }
    } catch (java.net.URISyntaxException e) {
      throw invalid("amqpUri", "is not a URI"); // the text may hold a password: never shown
    }
    if (prefetch < 1 || prefetch > 65_535) {
      throw invalid("amqpPrefetch", "must be 1 to 65535, was " + prefetch);
    }
    if (publishTimeout == null || publishTimeout.isNegative()) {
      throw invalid("amqpPublishTimeoutMillis", "must be zero or positive");
    }
    retryDelaysMillis = List.copyOf(retryDelaysMillis);
    for (int i = 0; i < retryDelaysMillis.size(); i++) {
      long delay = retryDelaysMillis.get(i);
      if (delay <= 0 || (i > 0 && delay < retryDelaysMillis.get(i - 1))) {
        throw invalid(
            "amqpRetryDelaysMillis",
            "must be positive and non-decreasing, was " + retryDelaysMillis);
      }
    }
    if (maxDeliveries < 0) {
      throw invalid("amqpMaxDeliveries", "must be zero or positive, was " + maxDeliveries);
    }
    if (probeInterval == null || probeInterval.isNegative()) {
      throw invalid("amqpProbeIntervalMillis", "must be zero or positive");
    }
  }

  /**
   * The defaults: local broker, prefetch 250, 15 s confirm bound, delays 1 s, 5 s, 30 s, cap 10.
   */
  public static AmqpSettings defaults() {
    return new AmqpSettings(
        DEFAULT_URI,
        // Spring AMQP's default too. 32 bounded a pushed channel by the round trip of the acks
        // (0.58 of SmallRye's RabbitMQ connector, which sets no limit; 1.11 with 256:
        // benchmarks.md).
        250,
        Duration.ofSeconds(15),
        List.of(1_000L, 5_000L, 30_000L),
        10,
        Duration.ofSeconds(2));
  }

  public AmqpSettings withUri(String newUri) {
    return new AmqpSettings(
        newUri, prefetch, publishTimeout, retryDelaysMillis, maxDeliveries, probeInterval);
  }

  public AmqpSettings withPrefetch(int newPrefetch) {
    return new AmqpSettings(
        uri, newPrefetch, publishTimeout, retryDelaysMillis, maxDeliveries, probeInterval);
  }

  public AmqpSettings withPublishTimeout(Duration timeout) {
    return new AmqpSettings(
        uri, prefetch, timeout, retryDelaysMillis, maxDeliveries, probeInterval);
  }

  public AmqpSettings withRetryDelaysMillis(List<Long> delays) {
    return new AmqpSettings(uri, prefetch, publishTimeout, delays, maxDeliveries, probeInterval);
  }

  public AmqpSettings withMaxDeliveries(int cap) {
    return new AmqpSettings(uri, prefetch, publishTimeout, retryDelaysMillis, cap, probeInterval);
  }

  /** Parses {@code "1000, 5000"}; blank means no delays. */
  public static List<Long> parseDelays(String text) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    try {
      return Arrays.stream(text.split(",")).map(String::strip).map(Long::parseLong).toList();
    } catch (NumberFormatException e) {
      throw invalid("amqpRetryDelaysMillis", "must be comma-separated milliseconds");
    }
  }

  /** The broker as {@code host:port}, for messages (never the credentials). */
  public String where() {
    try {
      URI parsed = new URI(uri.strip());
      int port = parsed.getPort() > 0 ? parsed.getPort() : 5672;
      return parsed.getHost() + ":" + port;
    } catch (java.net.URISyntaxException e) {
      return "(unparsable URI)";
    }
  }

  private static MailboxException invalid(String property, String rule) {
    return new MailboxException(
        ErrorCode.INVALID_POLICY, "Property " + property + " " + rule + ".");
  }

  /** The broker URI with its user information replaced, fit for logs and error messages. */
  public String uriForDisplay() {
    return uriForDisplay(uri);
  }

  static String uriForDisplay(String uri) {
    if (uri == null) {
      return "null";
    }
    int scheme = uri.indexOf("://");
    int at = uri.lastIndexOf('@');
    if (scheme < 0 || at < scheme) {
      return uri.startsWith("amqp") ? uri.replaceAll("[^/:@]+@", "***@") : "(not shown)";
    }
    return uri.substring(0, scheme + 3) + "***" + uri.substring(at);
  }

  /** Never the password: the adapter logs its settings when it starts (issue 20, item 5). */
  @Override
  public String toString() {
    return "AmqpSettings[uri="
        + uriForDisplay()
        + ", prefetch="
        + prefetch
        + ", publishTimeout="
        + publishTimeout
        + ", retryDelaysMillis="
        + retryDelaysMillis
        + ", maxDeliveries="
        + maxDeliveries
        + ", probeInterval="
        + probeInterval
        + "]";
  }
}
