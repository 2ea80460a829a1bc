package io.mailbox.connector.provider.nats;

import io.mailbox.connector.spi.ProviderSettings;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What the {@code nats:} provider needs to know, checked before anything connects.
 *
 * @param url the server, {@code nats://host:port[,nats://host:port...]}
 * @param stream the JetStream stream that stores every address's messages
 * @param subjectPrefix the first token of every subject; the stream captures {@code <prefix>.>}
 * @param defaultGroup an address is read by the durable consumer of group {@code
 *     <defaultGroup>.<address>}
 * @param publishTimeout how long a post waits for the stream's acknowledgement
 * @param createStream whether the provider creates a missing stream (with the explicit subject
 *     {@code <prefix>.>}); else a missing stream stops the start with {@code MBX-2007}
 * @param ackWait how long the server waits for a delivery's acknowledgement before it hands it out
 *     again (the lease of a crashed consumer)
 * @param maxDeliveries deliveries a message gets before it is dead-lettered; 0 = no cap
 * @param maxReconnects reconnect attempts after a lost connection; -1 = forever
 * @param reconnectWait the pause between reconnect attempts
 * @param deduplicateByMessageId whether a post's message id is its JetStream message id, so the
 *     server drops a repeat within its duplicate window (2 min by default)
 * @param probeInterval how long a reachability probe's answer is reused
 */
public record NatsSettings(
    String url,
    String stream,
    String subjectPrefix,
    String defaultGroup,
    Duration publishTimeout,
    boolean createStream,
    Duration ackWait,
    int maxDeliveries,
    int maxReconnects,
    Duration reconnectWait,
    boolean deduplicateByMessageId,
    Duration probeInterval) {

  private static final Pattern URLS =
      Pattern.compile(
          "(nats|tls)://[A-Za-z0-9.\\-\\[\\]:@]+:\\d{1,5}(,(nats|tls)://[A-Za-z0-9.\\-\\[\\]:@]+:\\d{1,5})*");
  // Stream names and subject tokens: what NATS accepts everywhere without escaping.
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  public NatsSettings {
    if (url == null || !URLS.matcher(url.strip()).matches()) {
      throw ProviderSettings.invalid("natsUrl", "must be nats://host:port[,nats://host:port...]");
    }
    url = url.strip();
    if (stream == null || !NAME.matcher(stream).matches()) {
      throw ProviderSettings.invalid("natsStream", "must be 1 to 64 of A-Z, a-z, 0-9, '_', '-'");
    }
    if (subjectPrefix == null || !NAME.matcher(subjectPrefix).matches()) {
      throw ProviderSettings.invalid(
          "natsSubjectPrefix", "must be 1 to 64 of A-Z, a-z, 0-9, '_', '-' (one subject token)");
    }
    if (defaultGroup == null
        || defaultGroup.isBlank()
        || defaultGroup.length() > 64
        || defaultGroup.chars().anyMatch(Character::isISOControl)) {
      throw ProviderSettings.invalid(
          "natsDefaultGroup", "must be 1 to 64 characters without control characters");
    }
    if (publishTimeout == null || publishTimeout.isNegative() || publishTimeout.isZero()) {
      throw ProviderSettings.invalid("natsPublishTimeoutMillis", "must be more than zero");
    }
    if (ackWait == null || ackWait.toMillis() < 1_000) {
      throw ProviderSettings.invalid("natsAckWaitMillis", "must be 1000 or more");
    }
    if (maxDeliveries < 0) {
      throw ProviderSettings.invalid("natsMaxDeliveries", "must be zero or more");
    }
    if (maxReconnects < -1) {
      throw ProviderSettings.invalid("natsMaxReconnects", "must be -1 (forever) or more");
    }
    if (reconnectWait == null || reconnectWait.isNegative() || reconnectWait.isZero()) {
      throw ProviderSettings.invalid("natsReconnectWaitMillis", "must be more than zero");
    }
  }

  /**
   * A local server, stream {@code MAILBOX} on {@code mailbox.>}, group {@code mailbox}, 15 s bound,
   * no stream creation, 30 s ack wait, 10 deliveries, reconnecting forever every 2 s.
   */
  public static NatsSettings defaults() {
    return new NatsSettings(
        "nats://127.0.0.1:4222",
        "MAILBOX",
        "mailbox",
        "mailbox",
        Duration.ofSeconds(15),
        false,
        Duration.ofSeconds(30),
        10,
        -1,
        Duration.ofSeconds(2),
        false,
        Duration.ofSeconds(2));
  }

  /** The subjects the stream captures: every address's, and nothing else. */
  String streamSubjects() {
    return subjectPrefix + ".>";
  }

  public NatsSettings withUrl(String newUrl) {
    return new NatsSettings(
        newUrl,
        stream,
        subjectPrefix,
        defaultGroup,
        publishTimeout,
        createStream,
        ackWait,
        maxDeliveries,
        maxReconnects,
        reconnectWait,
        deduplicateByMessageId,
        probeInterval);
  }

  /** The stream {@code name} on {@code <prefix>.>}, created when missing. */
  public NatsSettings withCreatedStream(String name, String prefix) {
    return new NatsSettings(
        url,
        name,
        prefix,
        defaultGroup,
        publishTimeout,
        true,
        ackWait,
        maxDeliveries,
        maxReconnects,
        reconnectWait,
        deduplicateByMessageId,
        probeInterval);
  }

  public NatsSettings withDefaultGroup(String group) {
    return new NatsSettings(
        url,
        stream,
        subjectPrefix,
        group,
        publishTimeout,
        createStream,
        ackWait,
        maxDeliveries,
        maxReconnects,
        reconnectWait,
        deduplicateByMessageId,
        probeInterval);
  }

  public NatsSettings withAckWait(Duration wait) {
    return new NatsSettings(
        url,
        stream,
        subjectPrefix,
        defaultGroup,
        publishTimeout,
        createStream,
        wait,
        maxDeliveries,
        maxReconnects,
        reconnectWait,
        deduplicateByMessageId,
        probeInterval);
  }

  public NatsSettings withMaxDeliveries(int deliveries) {
    return new NatsSettings(
        url,
        stream,
        subjectPrefix,
        defaultGroup,
        publishTimeout,
        createStream,
        ackWait,
        deliveries,
        maxReconnects,
        reconnectWait,
        deduplicateByMessageId,
        probeInterval);
  }

  public NatsSettings withPublishTimeout(Duration timeout) {
    return new NatsSettings(
        url,
        stream,
        subjectPrefix,
        defaultGroup,
        timeout,
        createStream,
        ackWait,
        maxDeliveries,
        maxReconnects,
        reconnectWait,
        deduplicateByMessageId,
        probeInterval);
  }

  /** The URL as logs and errors show it: a user and password in it masked. */
  String shownUrl() {
    return url.replaceAll("//[^/,]+@", "//***@"); // up to the last @ of each server
  }

  /** The settings with any user and password in the URL masked (they never reach a log). */
  @Override
  public String toString() {
    return "NatsSettings[url="
        + shownUrl()
        + ", stream="
        + stream
        + ", subjectPrefix="
        + subjectPrefix
        + ", defaultGroup="
        + defaultGroup
        + ", publishTimeout="
        + publishTimeout
        + ", createStream="
        + createStream
        + ", ackWait="
        + ackWait
        + ", maxDeliveries="
        + maxDeliveries
        + "]";
  }
}
