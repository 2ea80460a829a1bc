package io.mailbox.connector.api;

import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A mailbox address, {@code scheme:user@host[/path]} (RFC 3986). The {@code user@host/path} part
 * names the mailbox; the scheme names the provider that reaches it. {@code mem:a@b/c} and {@code
 * mem://a@b/c} are the same mailbox; both print as the canonical {@code mem://a@b/c}.
 *
 * <p>A query or fragment is refused rather than dropped: dropping it would silently merge two
 * mailboxes into one queue.
 */
public final class MailAddress implements Comparable<MailAddress>, Serializable {
  private static final long serialVersionUID = 1L;

  // No repeated groups or alternations: Java runs those recursively, and a user part of 5,000
  // characters overflowed the stack (found by MailAddressFuzzTest). Character classes repeat
  // without recursion; percent-encoding is checked separately.
  private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*");
  // RFC 3986 userinfo without ':' (no passwords in addresses): unreserved, pct-encoded, sub-delims.
  private static final Pattern USER = Pattern.compile("[A-Za-z0-9._~!$&'()*+,;=%-]+");
  private static final Pattern HOST_LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?");
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._~!$&'()*+,;=:@%-]+");
  private static final Pattern BAD_PERCENT = Pattern.compile("%(?![0-9A-Fa-f]{2})");

  private final String scheme;
  private final String user;
  private final String host;
  private final String path;
  private final int hash;
  // The canonical text, made once: sorting 10,000 addresses built it twice per comparison (the
  // snapshot's sort grew faster than the address count). Transient: derived, never serialized.
  private transient String text;

  private MailAddress(String scheme, String user, String host, String path) {
    this.scheme = scheme;
    this.user = user;
    this.host = host;
    this.path = path;
    this.hash = Objects.hash(scheme, user, host, path);
  }

  /**
   * Parses and canonicalizes an address.
   *
   * @throws InvalidAddressException with {@link ErrorCode#MALFORMED_ADDRESS} or {@link
   *     ErrorCode#ADDRESS_HAS_QUERY_OR_FRAGMENT}; nothing is changed anywhere
   */
  public static MailAddress parse(String text) {
    if (text == null || text.isBlank()) {
      throw malformed(String.valueOf(text), "it is empty");
    }
    String trimmed = text.strip();
    int query = indexOfAny(trimmed, '?', '#');
    if (query >= 0) {
      String withoutQuery = trimmed.substring(0, query);
      String suffix = trimmed.substring(query + 1).replaceAll("[^A-Za-z0-9]+", "-");
      throw new InvalidAddressException(
          ErrorCode.ADDRESS_HAS_QUERY_OR_FRAGMENT,
          "Address '"
              + trimmed
              + "' has a query or fragment, which would merge it with '"
              + withoutQuery
              + "'; put the partition in the path instead: "
              + withoutQuery
              + "/"
              + suffix);
    }
    int colon = trimmed.indexOf(':');
    if (colon <= 0) {
      throw malformed(
          trimmed,
          "it has no scheme (expected scheme:user@host[/path], e.g. mem:orders@shop/inbox)");
    }
    String scheme = trimmed.substring(0, colon).toLowerCase(Locale.ROOT);
    if (!SCHEME.matcher(scheme).matches()) {
      throw malformed(trimmed, "the scheme '" + scheme + "' is not a valid URI scheme");
    }
    String rest = trimmed.substring(colon + 1);
    if (rest.startsWith("//")) {
      rest = rest.substring(2);
    }
    int at = rest.indexOf('@');
    if (at <= 0) {
      throw malformed(trimmed, "it has no user part before '@' (expected scheme:user@host[/path])");
    }
    String user = rest.substring(0, at);
    if (!USER.matcher(user).matches() || BAD_PERCENT.matcher(user).find()) {
      throw malformed(
          trimmed, "the user part '" + user + "' has characters that must be percent-encoded");
    }
    String hostAndPath = rest.substring(at + 1);
    int slash = hostAndPath.indexOf('/');
    String host =
        (slash < 0 ? hostAndPath : hostAndPath.substring(0, slash)).toLowerCase(Locale.ROOT);
    if (!validHost(host)) {
      throw malformed(trimmed, "the host '" + host + "' is not a valid host name");
    }
    String path = slash < 0 ? "" : hostAndPath.substring(slash + 1);
    if (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (!path.isEmpty()) {
      for (String segment : path.split("/", -1)) {
        if (segment.equals(".")
            || segment.equals("..")
            || !SEGMENT.matcher(segment).matches()
            || BAD_PERCENT.matcher(segment).find()) {
          throw malformed(
              trimmed,
              "the path segment '"
                  + segment
                  + "' is empty, a dot segment or has characters that must be percent-encoded");
        }
      }
    }
    return new MailAddress(scheme, user, host, path);
  }

  /** Dot-separated labels of letters, digits and inner hyphens. */
  private static boolean validHost(String host) {
    for (String label : host.split("\\.", -1)) {
      if (!HOST_LABEL.matcher(label).matches()) {
        return false;
      }
    }
    return true;
  }

  private static InvalidAddressException malformed(String text, String why) {
    return new InvalidAddressException(
        ErrorCode.MALFORMED_ADDRESS, "Address '" + text + "' is malformed: " + why + ".");
  }

  private static int indexOfAny(String text, char first, char second) {
    int a = text.indexOf(first);
    int b = text.indexOf(second);
    if (a < 0) {
      return b;
    }
    return b < 0 ? a : Math.min(a, b);
  }

  /** The transport scheme, lower case, for example {@code mem}. */
  public String scheme() {
    return scheme;
  }

  public String user() {
    return user;
  }

  /** The host, lower case. */
  public String host() {
    return host;
  }

  /** The path without leading or trailing slash; empty when the address has none. */
  public String path() {
    return path;
  }

  /** The mailbox name without the scheme: {@code user@host[/path]}. */
  public String mailbox() {
    return user + "@" + host + (path.isEmpty() ? "" : "/" + path);
  }

  /** The same mailbox reached through another transport. */
  public MailAddress withScheme(String otherScheme) {
    return parse(otherScheme + "://" + mailbox());
  }

  /** The canonical form, {@code scheme://user@host[/path]}. */
  @Override
  public String toString() {
    String canonical = text;
    if (canonical == null) {
      canonical = scheme + "://" + mailbox();
      text = canonical; // a benign race: every thread computes the same string
    }
    return canonical;
  }

  @Override
  public boolean equals(Object other) {
    return other == this
        || other instanceof MailAddress that
            && scheme.equals(that.scheme)
            && user.equals(that.user)
            && host.equals(that.host)
            && path.equals(that.path);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public int compareTo(MailAddress other) {
    return toString().compareTo(other.toString());
  }
}
