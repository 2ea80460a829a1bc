package io.mailbox.connector.api;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The publish options a message carries as headers, and the rules every post is checked against
 * before anything changes (docs/configuration.md, "Publish options").
 *
 * <ul>
 *   <li>{@value #ORDERING_KEY}: the same key reaches the same partition or ordered subscription
 *       where the transport has one; at most {@value #MAX_KEY_BYTES} UTF-8 bytes;
 *   <li>{@value #DEDUPLICATION_ID}: the transport's native de-duplication where it has one; at most
 *       {@value #MAX_KEY_BYTES} UTF-8 bytes;
 *   <li>caller headers: at most {@value #MAX_HEADERS} beside those two, names of at most 128
 *       characters without control characters, values of at most {@value #MAX_HEADER_BYTES} UTF-8
 *       bytes; a name a broker or server acts on ({@code cc}, {@code bcc}, {@code payload},
 *       RabbitMQ's {@code x-death}, {@code x-delivery-count}, {@code x-acquired-count}, {@code
 *       x-delay}, {@code x-first-death-*}, {@code x-last-death-*}, {@code nats-*}, {@code goog*})
 *       is refused, compared case-insensitively. Our own {@code mbx-} headers are not the caller's:
 *       the send boundary replaces them.
 *   <li>the trace context ({@link TraceHeaders}): {@code traceparent} and {@code tracestate} only
 *       under these lowercase names and in their W3C form; not counted among the caller headers.
 * </ul>
 *
 * A refusal is {@link ErrorCode#INVALID_MESSAGE} naming the field and the rule; it never repeats
 * the refused value (a key or header may hold something private).
 */
public final class PublishOptions {
  public static final String ORDERING_KEY = "ordering-key";
  public static final String DEDUPLICATION_ID = "deduplication-id";
  public static final int MAX_KEY_BYTES = 128;
  public static final int MAX_HEADERS = 32;
  public static final int MAX_HEADER_BYTES = 1024;
  public static final int MAX_NAME_CHARS = 128;

  private static final List<String> RESERVED_NAMES =
      List.of(
          TraceHeaders.TRACEPARENT, // in any other case than the trace context's own (TraceHeaders)
          TraceHeaders.TRACESTATE,
          "cc",
          "bcc",
          "payload",
          "x-death",
          "x-delivery-count",
          "x-acquired-count",
          "x-delay");
  private static final List<String> RESERVED_PREFIXES =
      List.of("x-first-death-", "x-last-death-", "nats-", "goog");

  private PublishOptions() {}

  /** Checks the options and headers of {@code message}; throws before anything was posted. */
  public static void check(MailMessage message) {
    int callerHeaders = 0;
    for (Map.Entry<String, String> header : message.headers().entrySet()) {
      String name = header.getKey();
      if (SystemHeaders.isSystemHeader(name)) {
        continue; // replaced at the send boundary
      }
      String value = header.getValue();
      if (name.equals(ORDERING_KEY) || name.equals(DEDUPLICATION_ID)) {
        checkKey(name, value);
        continue;
      }
      if (TraceHeaders.isTraceHeader(name)) {
        if (!TraceHeaders.isWellFormed(name, value)) {
          throw refused(
              "The "
                  + name
                  + " header must be in its W3C Trace Context form"
                  + " (https://www.w3.org/TR/trace-context/).");
        }
        continue;
      }
      callerHeaders++;
      checkName(name, callerHeaders);
      if (utf8Bytes(value) > MAX_HEADER_BYTES || hasControl(value)) {
        throw refused(
            "The value of header '"
                + name
                + "' is over "
                + MAX_HEADER_BYTES
                + " UTF-8 bytes or holds control characters.");
      }
    }
    if (callerHeaders > MAX_HEADERS) {
      throw refused(
          "A message carries "
              + callerHeaders
              + " headers; at most "
              + MAX_HEADERS
              + " (beside "
              + ORDERING_KEY
              + " and "
              + DEDUPLICATION_ID
              + ").");
    }
  }

  /**
   * Whether {@code value} may be an ordering key or de-duplication id: 1 to {@value MAX_KEY_BYTES}
   * UTF-8 bytes, not blank, without control characters.
   */
  public static boolean fitsKey(String value) {
    return !value.isBlank() && utf8Bytes(value) <= MAX_KEY_BYTES && !hasControl(value);
  }

  private static void checkKey(String name, String value) {
    if (!fitsKey(value)) {
      throw refused(
          "The "
              + name
              + " must be 1 to "
              + MAX_KEY_BYTES
              + " UTF-8 bytes without control characters and not blank.");
    }
  }

  private static void checkName(String name, int position) {
    if (name.length() > MAX_NAME_CHARS || hasControl(name) || name.isBlank()) {
      throw refused(
          "Header "
              + position
              + " has a name that is blank, over "
              + MAX_NAME_CHARS
              + " characters or holds control characters.");
    }
    String rule = reservedRule(name);
    if (rule != null) {
      throw refused(
          "Header names matching '"
              + rule
              + "' are reserved: a broker or server acts on them (compared case-insensitively)."
              + " Rename the header.");
    }
  }

  /**
   * Whether a broker or server acts on a header named {@code name}: a caller may not set it, and a
   * transport drops it from a foreign message (so a received copy can always be posted again).
   */
  public static boolean isReserved(String name) {
    return !TraceHeaders.isTraceHeader(name) && reservedRule(name) != null;
  }

  private static String reservedRule(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String reserved : RESERVED_NAMES) {
      if (lower.equals(reserved)) {
        return reserved;
      }
    }
    for (String prefix : RESERVED_PREFIXES) {
      if (lower.startsWith(prefix)) {
        return prefix + "*";
      }
    }
    return null;
  }

  private static MailboxException refused(String why) {
    return new MailboxException(ErrorCode.INVALID_MESSAGE, why);
  }

  /** The UTF-8 length, or a smaller number when the text is too short to pass any bound. */
  private static int utf8Bytes(String text) {
    if (text.length() * 3 <= MAX_KEY_BYTES) {
      return text.length(); // at most 3 bytes per char: under every bound, no encoding needed
    }
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  private static boolean hasControl(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && Character.isISOControl(c))) {
        return true;
      }
    }
    return false;
  }
}
