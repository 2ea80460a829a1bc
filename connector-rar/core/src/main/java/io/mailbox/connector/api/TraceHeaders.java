package io.mailbox.connector.api;

import java.util.regex.Pattern;

/**
 * The W3C Trace Context a message carries (docs/observability.md, "Traces"): {@value #TRACEPARENT}
 * and {@value #TRACESTATE}, under exactly these lowercase names. Tracers act on them, so a post
 * takes them only in their W3C form (https://www.w3.org/TR/trace-context/): a malformed value, or
 * the names in any other case, is refused like any reserved header, and a foreign producer's
 * malformed ones are dropped. The tracing glue of the channels and the outbox writes them; a caller
 * that traces on its own may too.
 */
public final class TraceHeaders {
  public static final String TRACEPARENT = "traceparent";
  public static final String TRACESTATE = "tracestate";

  /** W3C: at most 32 list members, and a vendor may drop a header longer than 512 characters. */
  static final int MAX_TRACESTATE_CHARS = 512;

  private static final int MAX_TRACESTATE_MEMBERS = 32;

  // Version 00 only: the one version defined; a later one may add fields this check cannot judge.
  private static final Pattern PARENT =
      Pattern.compile("00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}");
  private static final Pattern MEMBER =
      Pattern.compile(
          "(?:[a-z][a-z0-9_\\-*/]{0,255}|[a-z0-9][a-z0-9_\\-*/]{0,240}@[a-z][a-z0-9_\\-*/]{0,13})"
              + "=[\\x20-\\x2b\\x2d-\\x3c\\x3e-\\x7e]{0,255}[\\x21-\\x2b\\x2d-\\x3c\\x3e-\\x7e]");

  private TraceHeaders() {}

  /** Whether {@code name} is one of the two trace headers, exactly. */
  public static boolean isTraceHeader(String name) {
    return TRACEPARENT.equals(name) || TRACESTATE.equals(name);
  }

  /** Whether {@code value} is a well-formed value of trace header {@code name}. */
  public static boolean isWellFormed(String name, String value) {
    if (value == null) {
      return false;
    }
    return switch (name) {
      case TRACEPARENT -> value.length() == 55 && PARENT.matcher(value).matches();
      case TRACESTATE -> isTraceState(value);
      default -> false;
    };
  }

  private static boolean isTraceState(String value) {
    if (value.length() > MAX_TRACESTATE_CHARS) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c > 0x7e) {
        return false; // printable ASCII and the W3C's optional whitespace only: no line breaks
      }
    }
    String[] members = value.split(",", -1);
    if (members.length > MAX_TRACESTATE_MEMBERS) {
      return false;
    }
    boolean anyMember = false;
    for (String member : members) {
      String trimmed = trimSpacesAndTabs(member);
      // W3C allows empty list members (",,"), but not a header of nothing but them.
      if (!trimmed.isEmpty()) {
        if (!MEMBER.matcher(trimmed).matches()) {
          return false;
        }
        anyMember = true;
      }
    }
    return anyMember;
  }

  /** W3C's optional whitespace around a list member: spaces and tabs, nothing else. */
  private static String trimSpacesAndTabs(String text) {
    int from = 0;
    int to = text.length();
    while (from < to && (text.charAt(from) == ' ' || text.charAt(from) == '\t')) {
      from++;
    }
    while (to > from && (text.charAt(to - 1) == ' ' || text.charAt(to - 1) == '\t')) {
      to--;
    }
    return text.substring(from, to);
  }
}
