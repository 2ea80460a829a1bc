package io.mailbox.console.security;

/** Makes caller-supplied text safe for a log line. */
public final class ControlCharacters {
  private ControlCharacters() {}

  /**
   * The text with every control character (CR, LF, tab, ESC, NEL, the Unicode line and paragraph
   * separators, invisible format characters) written as {@code \\uXXXX}, so a caller cannot start a
   * forged log line or hide text.
   */
  public static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)
          || c == '\u2028'
          || c == '\u2029'
          || Character.getType(c) == Character.FORMAT) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
