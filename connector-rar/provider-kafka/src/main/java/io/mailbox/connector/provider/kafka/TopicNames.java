package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.kernel.RequestReply;
import io.mailbox.connector.spi.NameEscape;
import java.util.Optional;

/**
 * How addresses map to Kafka topics, and back. Kafka allows {@code [a-zA-Z0-9._-]} in a topic name,
 * at most {@value #MAX_CHARS} characters. The topic of {@code kafka://orders@shop/placed} is the
 * prefix ({@code mailbox.} by default) plus its mailbox, each character outside {@code
 * [a-zA-Z0-9.-]} written as {@code _} and two hex digits per UTF-8 byte: {@code
 * mailbox.orders_40shop_2Fplaced}. {@code _} itself is escaped too ({@code _5F}), so the mapping is
 * injective and {@link #address} reads it back. An address whose topic would not fit (with room for
 * its parked topic, {@code <topic>_parked}) is refused with {@code MBX-1001} before anything
 * reaches the broker.
 *
 * <p>A consumer group derived for an address is {@code <defaultGroup>:<topic>}: the colon cannot
 * appear in a topic, so the pair can be split again.
 */
final class TopicNames {
  static final int MAX_CHARS = 249;

  /** Where the end of an address's dead-letter chain is kept; {@code _p} is never an escape. */
  static final String PARKED_SUFFIX = "_parked";

  private final String prefix;

  // Names this provider instance's group on the shared reply inbox: a restart is a new reader.
  private final String instance = java.util.UUID.randomUUID().toString().substring(0, 8);

  TopicNames(String prefix) {
    this.prefix = prefix;
  }

  String prefix() {
    return prefix;
  }

  /** The topic of {@code address}; refuses one Kafka could not name. */
  String topic(MailAddress address) {
    String topic = prefix + escape(address.mailbox());
    if (topic.length() + PARKED_SUFFIX.length() > MAX_CHARS) {
      String shown = address.toString();
      if (shown.length() > 80) {
        shown = shown.substring(0, 77) + "...";
      }
      throw new MailboxException(
          ErrorCode.MALFORMED_ADDRESS,
          "The kafka: address "
              + shown
              + " cannot be used: its topic name would be "
              + topic.length()
              + " characters, and Kafka allows "
              + MAX_CHARS
              + " with the "
              + PARKED_SUFFIX.length()
              + " of its parked topic ("
              + PARKED_SUFFIX
              + ")"
              + "; shorten the user, host or path (characters outside a-z, A-Z, 0-9, '.' and '-'"
              + " take three each).");
    }
    return topic;
  }

  /** The topic where {@code address}'s parked records are kept. */
  String parkedTopic(MailAddress address) {
    return topic(address) + PARKED_SUFFIX;
  }

  /**
   * The address a topic of ours stands for; empty for a topic without our prefix, and for a parked
   * topic.
   */
  Optional<MailAddress> address(String topic) {
    if (!topic.startsWith(prefix) || topic.endsWith(PARKED_SUFFIX)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          MailAddress.parse(
              KafkaProvider.SCHEME + "://" + unescape(topic.substring(prefix.length()))));
    } catch (RuntimeException notOurs) {
      return Optional.empty();
    }
  }

  /** The group that reads {@code topic} when the caller names none. */
  static String derivedGroup(String defaultGroup, String topic) {
    return defaultGroup + ":" + topic;
  }

  /**
   * The group that reads {@code address} here: the derived one; for the shared reply inbox ({@link
   * RequestReply#SHARED_INBOX}) one of this provider instance's own, so that every instance reads
   * every reply (each keeps those it waits for). A reply posted there starts no group (the
   * requesters made the topic and theirs): {@code KafkaProvider.publish}.
   */
  String groupOf(MailAddress address, String defaultGroup) {
    String derived = derivedGroup(defaultGroup, topic(address));
    return RequestReply.isSharedInbox(address) ? derived + ":" + instance : derived;
  }

  static String escape(String text) {
    return NameEscape.escape(text, ".");
  }

  static String unescape(String escaped) {
    return NameEscape.unescape(escaped);
  }
}
