package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import java.util.Optional;
import java.util.function.Function;

/**
 * How addresses map to stream keys, and back. The stream of {@code redis://orders@shop/placed} is
 * the prefix, a colon and the mailbox in braces: {@code mailbox:{orders@shop/placed}}. An address
 * cannot hold a brace, so the first {@code }} ends the mailbox and the mapping is injective; what
 * follows it is the provider's own: the dead letters of a stream's group are in {@code
 * <stream>.dead.<group>}, the parked records of a stream in {@code <stream>.parked}. The braces are
 * also a Redis Cluster hash tag: a stream and its dead letters live in one slot.
 *
 * <p>The dead-letter topic of an address ({@code .../placed_dlq} under the kernel's policy) maps to
 * the dead-letter stream of its source, so a plain client finds an address's dead letters beside
 * it.
 */
final class StreamKeys {
  static final String DEAD = ".dead.";
  static final String PARKED = ".parked";

  private final String prefix;
  private final String group;
  private final Function<MailAddress, Optional<MailAddress>> deadLetterSource;
  private final Function<MailAddress, Optional<MailAddress>> deadLetterTopic;

  StreamKeys(
      String prefix,
      String group,
      Function<MailAddress, Optional<MailAddress>> deadLetterSource,
      Function<MailAddress, Optional<MailAddress>> deadLetterTopic) {
    this.prefix = prefix;
    this.group = group;
    this.deadLetterSource = deadLetterSource;
    this.deadLetterTopic = deadLetterTopic;
  }

  /** The stream of {@code address}: its own, or its source's dead-letter stream. */
  String stream(MailAddress address) {
    Optional<MailAddress> source = deadLetterSource.apply(address);
    if (source.isPresent()) {
      return stream(source.get()) + DEAD + group;
    }
    return prefix + ":{" + address.mailbox() + "}";
  }

  String parked(MailAddress address) {
    return stream(address) + PARKED;
  }

  /** The pattern of every stream key of the provider (for SCAN). */
  String pattern() {
    return prefix + ":{*";
  }

  /**
   * The address a stream key of ours stands for: a source's, or (under the current policy) a
   * dead-letter topic's; empty for a parked stream, another group's dead letters, or a foreign key.
   */
  Optional<MailAddress> address(String key) {
    String start = prefix + ":{";
    int close = key.indexOf('}');
    if (!key.startsWith(start) || close < 0) {
      return Optional.empty();
    }
    MailAddress address;
    try {
      address =
          MailAddress.parse(RedisProvider.SCHEME + "://" + key.substring(start.length(), close));
    } catch (RuntimeException notOurs) {
      return Optional.empty();
    }
    String rest = key.substring(close + 1);
    String level = DEAD + group;
    while (!rest.isEmpty()) {
      if (!rest.startsWith(level)) {
        return Optional.empty();
      }
      Optional<MailAddress> dead = deadLetterTopic.apply(address);
      if (dead.isEmpty() || dead.get().equals(address)) {
        return Optional.empty();
      }
      address = dead.get();
      rest = rest.substring(level.length());
    }
    return Optional.of(address);
  }
}
