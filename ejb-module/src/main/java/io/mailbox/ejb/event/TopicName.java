package io.mailbox.ejb.event;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The one rule for an outbox topic's name, used by {@link IntegrationEventDefinition} when an event
 * is defined and by the outbox relay for every row it publishes: 1 to 255 bytes of UTF-8, no
 * character that is invisible or splits a line when the topic is read in a log, a console or an
 * address. Refused: every Unicode control (Cc), format (Cf: zero-width and bidi marks) and
 * separator (Zs, Zl, Zp: ASCII and no-break spaces, U+2028, U+2029, the ideographic space)
 * character, and a lone surrogate (a string no encoder can write as UTF-8).
 */
public final class TopicName {
  /** The {@code TOPIC} column of the outbox and inbox tables, counted in UTF-8 bytes. */
  public static final int MAX_BYTES = 255;

  private TopicName() {}

  /**
   * Why {@code topic} is not a valid topic name, or empty when it is. The reason names the first
   * offending character by its code point ({@code U+2028}), never by the character itself.
   */
  public static Optional<String> problem(String topic) {
    if (topic == null || topic.isEmpty()) {
      return Optional.of("topic is empty");
    }
    for (int i = 0; i < topic.length(); ) {
      int codePoint = topic.codePointAt(i);
      if (!allowed(codePoint)) {
        return Optional.of(
            String.format(
                "topic has a space, control, format or lone surrogate character (U+%04X at %d)",
                codePoint, i));
      }
      i += Character.charCount(codePoint);
    }
    // Counted after the character check: a lone surrogate has no UTF-8 length.
    if (topic.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      return Optional.of("topic is longer than " + MAX_BYTES + " bytes of UTF-8");
    }
    return Optional.empty();
  }

  /** Whether {@code topic} is a valid topic name. */
  public static boolean isValid(String topic) {
    return problem(topic).isEmpty();
  }

  private static boolean allowed(int codePoint) {
    return switch (Character.getType(codePoint)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.SPACE_SEPARATOR,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.SURROGATE ->
          false;
      default -> true;
    };
  }
}
