package io.mailbox.connector.spi;

import java.nio.charset.StandardCharsets;

/**
 * A readable, injective escape for names a broker restricts (Kafka topics, NATS subjects and
 * consumers): ASCII letters and digits, {@code -} and the characters a transport also allows stay
 * as they are; every other UTF-8 byte, {@code _} included, becomes {@code _} and two hex digits
 * ({@code orders@shop/placed} → {@code orders_40shop_2Fplaced}). Because {@code _} is always
 * escaped, two different names never escape alike, and {@link #unescape} reads a name back.
 */
public final class NameEscape {
  private static final char ESCAPE = '_';
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private NameEscape() {}

  /** {@code text} escaped, keeping letters, digits, {@code -} and {@code alsoKept} as they are. */
  public static String escape(String text, String alsoKept) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || (c != ESCAPE && c < 0x80 && alsoKept.indexOf(c) >= 0)) {
        out.append(c);
      } else {
        out.append(ESCAPE).append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
      }
    }
    return out.toString();
  }

  /** The text an escaped name stands for; refuses a cut or malformed escape. */
  public static String unescape(String escaped) {
    byte[] bytes = new byte[escaped.length()];
    int n = 0;
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c == ESCAPE) {
        if (i + 2 >= escaped.length()) {
          throw new IllegalArgumentException("a cut escape in " + escaped);
        }
        bytes[n++] = (byte) Integer.parseInt(escaped.substring(i + 1, i + 3), 16);
        i += 2;
      } else {
        bytes[n++] = (byte) c;
      }
    }
    return new String(bytes, 0, n, StandardCharsets.UTF_8);
  }
}
