package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.api.TraceHeaders;

/**
 * The rule for headers of messages a foreign producer wrote on a broker: a header is carried only
 * when its name is safe (no control or format characters, at most {@value #MAX_NAME_CHARS}
 * characters) and its value is made plain text without control characters, cut at {@value
 * #MAX_VALUE_CHARS} characters and as many UTF-8 bytes (what a post accepts again). A transport
 * drops and counts the rest, never echoing it.
 *
 * <p>On the wire, brokers carry a message's sender as {@value #FROM} and its meta as {@value
 * #META_PREFIX}{@code <name>} headers beside its own headers; {@link #carry} reads them back.
 */
public final class ForeignHeaders {
  public static final int MAX_VALUE_CHARS = 1024;
  public static final int MAX_NAME_CHARS = 128;

  /** The header carrying a message's sender address. */
  public static final String FROM = "mbx-from";

  /** The prefix of the headers carrying a message's meta entries. */
  public static final String META_PREFIX = "mbx-meta-";

  private ForeignHeaders() {}

  /**
   * Puts a received header onto {@code copy}: our {@value #FROM} and {@value #META_PREFIX} headers
   * become the sender and meta, other {@code mbx-} headers stay headers — but only on a message
   * {@code ours} (written by this product): a foreign producer cannot set our bookkeeping. Returns
   * false, and carries nothing, for a header that must be dropped (unsafe name, no value, foreign
   * {@code mbx-}, a name a broker acts on ({@link PublishOptions#isReserved}), a malformed trace
   * context ({@link TraceHeaders}), an unreadable sender); the caller counts it. {@code value} must
   * be plain already.
   */
  public static boolean carry(MailMessage.Builder copy, String name, String value, boolean ours) {
    if (!isSafeName(name) || value == null || (!ours && PublishOptions.isReserved(name))) {
      return false; // a reserved name (x-death, TraceParent, ...) would be refused at a re-post
    }
    if (TraceHeaders.isTraceHeader(name) && !TraceHeaders.isWellFormed(name, value)) {
      return false; // a malformed trace context would be refused at a re-post too
    }
    if (!name.startsWith(SystemHeaders.PREFIX)) {
      copy.header(name, value);
      return true;
    }
    if (!ours) {
      return false;
    }
    if (name.equals(FROM)) {
      try {
        copy.from(MailAddress.parse(value));
      } catch (RuntimeException malformed) {
        return false;
      }
    } else if (name.startsWith(META_PREFIX)) {
      if (name.length() == META_PREFIX.length()) {
        return false; // a meta entry needs a name
      }
      copy.meta(name.substring(META_PREFIX.length()), value);
    } else {
      copy.header(name, value);
    }
    return true;
  }

  /** Whether a header named {@code name} may be carried. */
  public static boolean isSafeName(String name) {
    if (name == null || name.isBlank() || name.length() > MAX_NAME_CHARS) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (isUnsafe(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code text} without control or format characters, cut at {@value #MAX_VALUE_CHARS} characters
   * and UTF-8 bytes.
   */
  public static String plainText(String text) {
    if (text.length() <= MAX_VALUE_CHARS && isPlain(text) && fitsBytes(text)) {
      return text; // the common case, on every header of every record: no copy
    }
    StringBuilder clean = new StringBuilder(Math.min(text.length(), MAX_VALUE_CHARS));
    int bytes = 0;
    for (int i = 0; i < text.length() && clean.length() < MAX_VALUE_CHARS; i++) {
      char c = text.charAt(i);
      if (isUnsafe(c)) {
        continue;
      }
      // UTF-8 bytes of this char: a surrogate pair's 4 are counted 2 + 2.
      int size = c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
      if (bytes + size > MAX_VALUE_CHARS) {
        break; // at most as many UTF-8 bytes as characters: it can be posted again
      }
      bytes += size;
      clean.append(c);
    }
    if (clean.length() > 0 && Character.isHighSurrogate(clean.charAt(clean.length() - 1))) {
      clean.setLength(clean.length() - 1); // never half a character
    }
    return clean.toString();
  }

  /**
   * {@link #plainText(String)} of UTF-8 bytes (a header value as a broker holds it). Printable
   * ASCII, nearly every header, is taken in one pass over the bytes, without decoding UTF-8 and
   * checking each character of the text again (a tenth of a Kafka reader's time per record).
   */
  public static String plainText(byte[] utf8) {
    if (utf8.length <= MAX_VALUE_CHARS && isPrintableAscii(utf8)) {
      return new String(utf8, java.nio.charset.StandardCharsets.ISO_8859_1); // ASCII: the same
    }
    return plainText(new String(utf8, java.nio.charset.StandardCharsets.UTF_8));
  }

  private static boolean isPrintableAscii(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0x20 || b == 0x7f) { // bytes of 0x80 and above are negative
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text} is at most {@value #MAX_VALUE_CHARS} UTF-8 bytes (checked when long). */
  private static boolean fitsBytes(String text) {
    return text.length() * 3 <= MAX_VALUE_CHARS
        || text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MAX_VALUE_CHARS;
  }

  private static boolean isPlain(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (isUnsafe(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isUnsafe(int c) {
    if (c >= 0x20 && c < 0x7f) {
      return false; // printable ASCII: most names and values, decided without a table lookup
    }
    return Character.isISOControl(c) || Character.getType(c) == Character.FORMAT;
  }
}
