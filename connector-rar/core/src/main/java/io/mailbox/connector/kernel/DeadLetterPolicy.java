package io.mailbox.connector.kernel;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import java.io.Serializable;
import java.util.regex.Pattern;

/**
 * Opt-in archiving of given-up messages to {@code <topic><suffix>}. The chain is capped at {@code
 * maxNesting} levels: a record given up at the cap is parked in its topic instead of opening a
 * deeper one. {@link Integer#MAX_VALUE} is the explicit "no limit".
 *
 * @param suffix appended to the address path; must already be canonical (unreserved characters or
 *     percent-encoded bytes, no '/', not a dot segment), or the record would land somewhere no
 *     address can name
 * @param maxNesting how many dead-letter levels may exist (at least 1)
 */
public record DeadLetterPolicy(String suffix, int maxNesting) implements Serializable {
  /** The suffix when none is given. */
  public static final String DEFAULT_SUFFIX = "_dlq";

  private static final Pattern CANONICAL_SUFFIX =
      Pattern.compile("([A-Za-z0-9._~-]|%[0-9A-F]{2})+");

  public DeadLetterPolicy {
    if (suffix == null
        || !CANONICAL_SUFFIX.matcher(suffix).matches()
        || suffix.equals(".")
        || suffix.equals("..")) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY,
          "Dead-letter suffix '"
              + suffix
              + "' is not in canonical form; use ASCII letters, digits, '-', '.', '_', '~' or"
              + " upper-case percent-encoding (e.g. _%E6%AD%BB%E4%BF%A1).");
    }
    if (maxNesting < 1) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY, "maxNesting must be at least 1, was " + maxNesting + ".");
    }
  }

  /** Suffix {@value #DEFAULT_SUFFIX}, one level. */
  public static DeadLetterPolicy defaults() {
    return new DeadLetterPolicy(DEFAULT_SUFFIX, 1);
  }

  /** How many dead-letter levels deep an address is (how often the suffix ends its path). */
  public int depthOf(MailAddress address) {
    String path = address.path();
    int depth = 0;
    while (path.endsWith(suffix)) {
      depth++;
      path = path.substring(0, path.length() - suffix.length());
    }
    return depth;
  }

  /**
   * The address whose dead-letter topic {@code address} is (one level up), or empty when its path
   * does not end with the suffix.
   */
  public java.util.Optional<MailAddress> sourceOf(MailAddress address) {
    if (depthOf(address) == 0) {
      return java.util.Optional.empty();
    }
    String path = address.path().substring(0, address.path().length() - suffix.length());
    return java.util.Optional.of(
        MailAddress.parse(
            address.scheme()
                + "://"
                + address.user()
                + "@"
                + address.host()
                + (path.isEmpty() ? "" : "/" + path)));
  }

  /**
   * Where a give-up at {@code address} lands: one level deeper, or the address itself at the cap.
   */
  public MailAddress deadLetterTopic(MailAddress address) {
    if (depthOf(address) >= maxNesting) {
      return address;
    }
    String path = address.path().isEmpty() ? suffix : address.path() + suffix;
    return MailAddress.parse(
        address.scheme() + "://" + address.user() + "@" + address.host() + "/" + path);
  }
}
