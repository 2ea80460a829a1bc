package io.mailbox.messaging;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * One channel's settings. MicroProfile Reactive Messaging hands the connector the channel's keys
 * ({@code mp.messaging.incoming.<channel>.*} / {@code mp.messaging.outgoing.<channel>.*}) merged
 * over the connector-wide defaults ({@code mp.messaging.connector.mailbox.*}).
 *
 * <table>
 *   <caption>Channel attributes</caption>
 *   <tr><th>key</th><th>direction</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>address</td><td>both</td><td>the mailbox address</td><td>required</td></tr>
 *   <tr><td>connection-factory</td><td>both</td><td>JNDI name of the adapter's factory</td>
 *       <td>{@code mailbox.connection-factory}, else mailbox/ConnectionFactory</td></tr>
 *   <tr><td>lease</td><td>incoming</td><td>lease per message in ms (0 never expires)</td><td>30000</td></tr>
 *   <tr><td>max-in-flight</td><td>incoming</td><td>unacknowledged messages at most</td><td>16</td></tr>
 *   <tr><td>max-attempts</td><td>incoming</td><td>rounds a message may fail retriably before it is
 *       discarded (dead-lettered); 0 = unlimited</td><td>3</td></tr>
 *   <tr><td>retry-delay</td><td>incoming</td><td>wait before a retriably failed message is handed
 *       out again, in ms, doubling per round</td><td>1000</td></tr>
 *   <tr><td>retry-max-delay</td><td>incoming</td><td>the most retry-delay grows to, in ms (never
 *       more than half the lease)</td><td>300000</td></tr>
 *   <tr><td>poll-interval</td><td>incoming</td><td>wait after an empty fetch, in ms</td><td>100</td></tr>
 *   <tr><td>delivery</td><td>incoming</td><td>{@code fetch}: the channel takes messages under
 *       leases, competing with every other reader; {@code push}: it subscribes, the transport
 *       pushes (RabbitMQ's prefetch, Kafka's poll), each copy settled by the message's ack — a
 *       subscriber like an MDB: subscribers of one address in one server each get every copy;
 *       {@code auto}: push where the provider hands its backlog to subscribers, else fetch</td>
 *       <td>auto</td></tr>
 *   <tr><td>outbox.topic</td><td>outgoing</td><td>inside a JTA transaction, write each message as
 *       an outbox row of this integration-event topic ({@code <type>.v<version>}) instead of
 *       posting; the relay publishes it to the channel's address</td><td>none (post)</td></tr>
 * </table>
 */
record ChannelSettings(
    String channel,
    MailAddress address,
    String connectionFactory,
    Duration lease,
    int maxInFlight,
    int maxAttempts,
    Duration retryDelay,
    Duration retryMaxDelay,
    Duration pollInterval,
    Optional<String> outboxTopic,
    Delivery delivery) {

  /** How an incoming channel gets its messages (the {@code delivery} attribute). */
  enum Delivery {
    FETCH,
    PUSH,
    AUTO
  }

  static ChannelSettings from(Config config) {
    String channel = config.getOptionalValue("channel-name", String.class).orElse("?");
    String address =
        config
            .getOptionalValue("address", String.class)
            .orElseThrow(
                () ->
                    new MailboxException(
                        ErrorCode.INVALID_ACTIVATION,
                        "Channel '"
                            + channel
                            + "' has no address; set mp.messaging.<incoming|outgoing>."
                            + channel
                            + ".address"));
    return new ChannelSettings(
        channel,
        MailAddress.parse(address),
        config
            .getOptionalValue("connection-factory", String.class)
            .orElseGet(ChannelSettings::applicationConnectionFactory),
        Duration.ofMillis(
            atLeast(channel, "lease", config.getOptionalValue("lease", Long.class), 30_000L, 0)),
        (int)
            atLeast(
                channel,
                "max-in-flight",
                config.getOptionalValue("max-in-flight", Long.class),
                16L,
                1,
                Integer.MAX_VALUE),
        (int)
            atLeast(
                channel,
                "max-attempts",
                config.getOptionalValue("max-attempts", Long.class),
                3L,
                0,
                Integer.MAX_VALUE),
        Duration.ofMillis(
            atLeast(
                channel,
                "retry-delay",
                config.getOptionalValue("retry-delay", Long.class),
                1_000L,
                0)),
        Duration.ofMillis(
            atLeast(
                channel,
                "retry-max-delay",
                config.getOptionalValue("retry-max-delay", Long.class),
                300_000L,
                0)),
        Duration.ofMillis(
            atLeast(
                channel,
                "poll-interval",
                config.getOptionalValue("poll-interval", Long.class),
                100L,
                1)),
        config.getOptionalValue("outbox.topic", String.class),
        delivery(channel, config.getOptionalValue("delivery", String.class).orElse("auto")));
  }

  private static Delivery delivery(String channel, String delivery) {
    return switch (delivery.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "fetch" -> Delivery.FETCH;
      case "push" -> Delivery.PUSH;
      case "auto" -> Delivery.AUTO;
      default ->
          throw new MailboxException(
              ErrorCode.INVALID_ACTIVATION,
              "Channel '" + channel + "': delivery must be auto, fetch or push.");
    };
  }

  /** The application-wide name ({@code mailbox.connection-factory}), else the default. */
  private static String applicationConnectionFactory() {
    return ConfigProvider.getConfig()
        .getOptionalValue(MailboxConnectionFactory.JNDI_NAME_PROPERTY, String.class)
        .orElse(MailboxConnectionFactory.DEFAULT_JNDI_NAME);
  }

  private static long atLeast(
      String channel, String key, Optional<Long> value, long fallback, long minimum) {
    return atLeast(channel, key, value, fallback, minimum, Long.MAX_VALUE);
  }

  /**
   * As above, with a maximum: an int setting above {@code Integer.MAX_VALUE} was cast into another
   * number (4294967297 in-flight messages became 1; found by ChannelSettingsFuzzTest).
   */
  private static long atLeast(
      String channel, String key, Optional<Long> value, long fallback, long minimum, long maximum) {
    long chosen = value.orElse(fallback);
    if (chosen > maximum) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY,
          "Channel '"
              + channel
              + "': "
              + key
              + " must be at most "
              + maximum
              + ", was "
              + chosen
              + ".");
    }
    if (chosen < minimum) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY,
          "Channel '"
              + channel
              + "': "
              + key
              + " must be at least "
              + minimum
              + ", was "
              + chosen
              + ".");
    }
    return chosen;
  }

  /** The wait before handing a message out again after it failed retriably in {@code round}. */
  Duration retryDelayAfter(int round) {
    // A retry-max-delay below retry-delay means "no growth": the cap is never under the first wait.
    Duration cap = retryMaxDelay.compareTo(retryDelay) < 0 ? retryDelay : retryMaxDelay;
    // The message waits out its delay under its lease: a longer wait would let the lease hand it
    // out again first, and the late "unhandled" would find nothing to settle. Half the lease at
    // most.
    if (!lease.isZero() && cap.compareTo(lease.dividedBy(2)) > 0) {
      cap = lease.dividedBy(2);
    }
    Duration first = retryDelay.compareTo(cap) > 0 ? cap : retryDelay;
    return io.mailbox.connector.spi.Backoff.after(round, first, cap);
  }
}
