package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.NameEscape;
import java.util.Optional;

/**
 * How addresses map to NATS subjects and durable consumers, and back. The subject of {@code
 * nats://orders@shop/placed} is the prefix token and the mailbox as one token, each character
 * outside {@code [A-Za-z0-9-]} written as {@code _} and two hex digits per UTF-8 byte ({@link
 * NameEscape}): {@code mailbox.orders_40shop_2Fplaced}. Its parked records go to {@code
 * <subject>.parked}, which no address's subject can equal (an address is one token).
 *
 * <p>The durable consumer of a group is the group and the address's token escaped the same way and
 * joined by {@code -}: {@code mailbox-orders_40shop_2Fplaced}. The characters NATS refuses in a
 * consumer name ({@code . * > / \} and whitespace) are among those escaped, and so is {@code _}
 * itself, so two different (group, address) pairs never share a name — unlike an escape of the
 * refused characters only, where {@code orders.eu} and {@code orders_2eeu} collide.
 */
final class SubjectNames {
  /** Kept below what file-based streams name on disk (255), with room for the parked suffix. */
  static final int MAX_CHARS = 240;

  static final String PARKED_SUFFIX = ".parked";

  private final String prefix;

  SubjectNames(String prefix) {
    this.prefix = prefix;
  }

  /** The subject of {@code address}; refuses one that would not fit. */
  String subject(MailAddress address) {
    String subject = prefix + "." + token(address);
    if (subject.length() + PARKED_SUFFIX.length() > MAX_CHARS) {
      throw tooLong(address, "subject", subject.length());
    }
    return subject;
  }

  String parkedSubject(MailAddress address) {
    return subject(address) + PARKED_SUFFIX;
  }

  /** The durable consumer of {@code group} on {@code address}. */
  String consumer(String group, MailAddress address) {
    String name = NameEscape.escape(group, "") + "-" + token(address);
    if (name.length() > MAX_CHARS) {
      throw tooLong(address, "consumer name", name.length());
    }
    return name;
  }

  /** The address a subject of ours stands for; empty for another subject and a parked one. */
  Optional<MailAddress> address(String subject) {
    String start = prefix + ".";
    if (!subject.startsWith(start) || subject.indexOf('.', start.length()) >= 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          MailAddress.parse(
              NatsProvider.SCHEME
                  + "://"
                  + NameEscape.unescape(subject.substring(start.length()))));
    } catch (RuntimeException notOurs) {
      return Optional.empty();
    }
  }

  private static String token(MailAddress address) {
    return NameEscape.escape(address.mailbox(), "");
  }

  private static MailboxException tooLong(MailAddress address, String what, int length) {
    String shown = address.toString();
    if (shown.length() > 80) {
      shown = shown.substring(0, 77) + "...";
    }
    return new MailboxException(
        ErrorCode.MALFORMED_ADDRESS,
        "The nats: address "
            + shown
            + " cannot be used: its "
            + what
            + " would be "
            + length
            + " characters, and the provider allows "
            + MAX_CHARS
            + "; shorten the user, host or path (characters outside a-z, A-Z, 0-9 and '-' take"
            + " three each).");
  }

  /**
   * Whether a consumer's filter {@code filter} matches {@code subject}: token by token, {@code *}
   * any one token, {@code >} the rest (one token or more).
   */
  static boolean covers(String filter, String subject) {
    String[] wanted = filter.split("\\.", -1);
    String[] tokens = subject.split("\\.", -1);
    for (int i = 0; i < wanted.length; i++) {
      if (wanted[i].equals(">")) {
        return tokens.length > i;
      }
      if (i >= tokens.length || !(wanted[i].equals("*") || wanted[i].equals(tokens[i]))) {
        return false;
      }
    }
    return wanted.length == tokens.length;
  }
}
