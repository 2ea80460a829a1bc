package io.mailbox.connector.spi;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The {@code mbx-sent-at} stamp both ways, exactly as {@link Instant#toString()} and {@link
 * Instant#parse} do (ISO-8601 in UTC, the fraction in groups of three digits, none when zero),
 * without running a {@code DateTimeFormatter} per message. Each direction keeps the last second it
 * met ("yyyy-MM-ddTHH:mm:ss", formatted or parsed once) and only handles the fraction itself: the
 * kernel stamps every post, and a transport that carries the time as a number (Kafka's record
 * timestamp) reads it back at every publish. The formatter was a tenth of the kernel's allocation
 * per post; {@code Instant.parse} was 44 % of the Kafka publishing thread's samples.
 */
public final class SentAt {
  /** A second as "yyyy-MM-ddTHH:mm:ss" and as epoch seconds; one immutable pair, swapped whole. */
  private record Second(long epochSecond, String text) {}

  private static final int SECOND_CHARS = "yyyy-MM-ddTHH:mm:ss".length();
  private static volatile Second lastFormatted = new Second(Long.MIN_VALUE, "");
  private static volatile Second lastParsed = new Second(Long.MIN_VALUE, "");

  private SentAt() {}

  /** {@code instant.toString()}. */
  public static String format(Instant instant) {
    long epochSecond = instant.getEpochSecond();
    Second second = lastFormatted;
    if (second.epochSecond() != epochSecond) {
      String whole = Instant.ofEpochSecond(epochSecond).toString(); // "...:ss" + "Z"
      second = new Second(epochSecond, whole.substring(0, whole.length() - 1));
      lastFormatted = second;
    }
    int nano = instant.getNano();
    String prefix = second.text();
    // The fraction in groups of three digits, as Instant.toString() writes it, from a table of the
    // thousand groups: one concatenation allocates the result once (a char[] filled by hand was
    // then copied again into the string).
    if (nano == 0) {
      return prefix + "Z";
    }
    String millis = GROUPS[nano / 1_000_000];
    int belowMillis = nano % 1_000_000;
    if (belowMillis == 0) {
      return prefix + "." + millis + "Z";
    }
    String micros = GROUPS[belowMillis / 1_000];
    int belowMicros = belowMillis % 1_000;
    if (belowMicros == 0) {
      return prefix + "." + millis + micros + "Z";
    }
    return prefix + "." + millis + micros + GROUPS[belowMicros] + "Z";
  }

  /** "000" to "999". */
  private static final String[] GROUPS = new String[1_000];

  static {
    for (int i = 0; i < GROUPS.length; i++) {
      GROUPS[i] = Integer.toString(1_000 + i).substring(1); // no Formatter at class load
    }
  }

  /**
   * {@code Instant.parse(text)}: the same instant for every text it accepts, and the same {@code
   * DateTimeParseException} for one it refuses. The fast path takes "yyyy-MM-ddTHH:mm:ss", an
   * optional fraction of 1 to 9 digits and "Z"; anything else (an offset, a leap second, a year
   * past 9999) goes to {@code Instant.parse}.
   */
  public static Instant parse(String text) {
    int length = text.length();
    if (length < SECOND_CHARS + 1 || text.charAt(length - 1) != 'Z' || isEdgeOfDay(text)) {
      return Instant.parse(text);
    }
    int nano = 0;
    if (length > SECOND_CHARS + 1) {
      int digits = length - SECOND_CHARS - 2;
      if (text.charAt(SECOND_CHARS) != '.' || digits < 1 || digits > 9) {
        return Instant.parse(text);
      }
      for (int i = SECOND_CHARS + 1; i < length - 1; i++) {
        char c = text.charAt(i);
        if (c < '0' || c > '9') {
          return Instant.parse(text);
        }
        nano = nano * 10 + (c - '0');
      }
      for (int i = digits; i < 9; i++) {
        nano *= 10;
      }
    }
    Second second = lastParsed;
    if (!text.regionMatches(0, second.text(), 0, SECOND_CHARS)) {
      String prefix = text.substring(0, SECOND_CHARS);
      // Validates the second exactly as a whole text would be (Instant.parse throws the same).
      second = new Second(secondOf(prefix, text), prefix);
      lastParsed = second;
    }
    return Instant.ofEpochSecond(second.epochSecond(), nano);
  }

  private static long secondOf(String prefix, String whole) {
    try {
      return Instant.parse(prefix + "Z").getEpochSecond();
    } catch (DateTimeParseException refused) {
      return Instant.parse(whole).getEpochSecond(); // throws as the whole text would
    }
  }

  /** A leap second (":60") or the day's end ("T24:"), which the parser alone interprets. */
  private static boolean isEdgeOfDay(String text) {
    return text.charAt(17) >= '6' || (text.charAt(11) == '2' && text.charAt(12) >= '4');
  }
}
