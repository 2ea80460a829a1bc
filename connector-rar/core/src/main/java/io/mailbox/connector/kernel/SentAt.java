package io.mailbox.connector.kernel;

import java.time.Instant;

/**
 * Formats the {@code mbx-sent-at} stamp exactly as {@link Instant#toString()} does (ISO-8601 in
 * UTC, the fraction in groups of three digits, none when zero), without running a {@code
 * DateTimeFormatter} per message: the date and time up to the second are formatted once per second
 * and kept, and only the fraction is appended. The formatter was a tenth of the kernel's allocation
 * per post.
 */
final class SentAt {
  /** The last second formatted, as "yyyy-MM-ddTHH:mm:ss"; one immutable pair, swapped whole. */
  private record Second(long epochSecond, String text) {}

  private static volatile Second last = new Second(Long.MIN_VALUE, "");

  private SentAt() {}

  static String format(Instant instant) {
    long epochSecond = instant.getEpochSecond();
    Second second = last;
    if (second.epochSecond() != epochSecond) {
      String whole = Instant.ofEpochSecond(epochSecond).toString(); // "...:ss" + "Z"
      second = new Second(epochSecond, whole.substring(0, whole.length() - 1));
      last = second;
    }
    int nano = instant.getNano();
    int digits = nano == 0 ? 0 : nano % 1_000_000 == 0 ? 3 : nano % 1_000 == 0 ? 6 : 9;
    int fraction = digits == 3 ? nano / 1_000_000 : digits == 6 ? nano / 1_000 : nano;
    String prefix = second.text();
    char[] text = new char[prefix.length() + (digits == 0 ? 1 : digits + 2)];
    prefix.getChars(0, prefix.length(), text, 0);
    int at = text.length - 1;
    text[at] = 'Z';
    if (digits > 0) {
      for (int i = 0; i < digits; i++, fraction /= 10) {
        text[--at] = (char) ('0' + fraction % 10);
      }
      text[--at] = '.';
    }
    return new String(text);
  }
}
