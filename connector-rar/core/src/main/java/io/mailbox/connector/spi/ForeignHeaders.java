package io.mailbox.connector.spi;

/**
 * The rule for headers of messages a foreign producer wrote on a broker: a header is carried only
 * when its name is safe (no control or format characters, at most {@value #MAX_NAME_CHARS}
 * characters) and its value is made plain text without control characters, cut at {@value
 * #MAX_VALUE_CHARS} characters. A transport drops and counts the rest, never echoing it.
 */
public final class ForeignHeaders {
  public static final int MAX_VALUE_CHARS = 1024;
  public static final int MAX_NAME_CHARS = 128;

  private ForeignHeaders() {}

  /** Whether a header named {@code name} may be carried. */
  public static boolean isSafeName(String name) {
    if (name == null || name.isBlank() || name.length() > MAX_NAME_CHARS) {
      return false;
    }
    return name.chars().noneMatch(ForeignHeaders::isUnsafe);
  }

  /** {@code text} without control or format characters, cut at {@value #MAX_VALUE_CHARS}. */
  public static String plainText(String text) {
    StringBuilder clean = new StringBuilder(Math.min(text.length(), MAX_VALUE_CHARS));
    for (int i = 0; i < text.length() && clean.length() < MAX_VALUE_CHARS; i++) {
      char c = text.charAt(i);
      if (!isUnsafe(c)) {
        clean.append(c);
      }
    }
    return clean.toString();
  }

  private static boolean isUnsafe(int c) {
    return Character.isISOControl(c) || Character.getType(c) == Character.FORMAT;
  }
}
