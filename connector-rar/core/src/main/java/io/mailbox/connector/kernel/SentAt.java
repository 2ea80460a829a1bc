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
    StringBuilder text = new StringBuilder(second.text().length() + 11).append(second.text());
    if (nano != 0) {
      text.append('.');
      if (nano % 1_000_000 == 0) {
        appendDigits(text, nano / 1_000_000, 3);
      } else if (nano % 1_000 == 0) {
        appendDigits(text, nano / 1_000, 6);
      } else {
        appendDigits(text, nano, 9);
      }
    }
    return text.append('Z').toString();
  }

  private static void appendDigits(StringBuilder text, int value, int digits) {
    for (int divisor = pow10(digits - 1); divisor > 0; divisor /= 10) {
      text.append((char) ('0' + (value / divisor) % 10));
    }
  }

  private static int pow10(int exponent) {
    int result = 1;
    for (int i = 0; i < exponent; i++) {
      result *= 10;
    }
    return result;
  }
}
