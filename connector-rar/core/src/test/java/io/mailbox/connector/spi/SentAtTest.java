package io.mailbox.connector.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The cached sent-at stamp is the text {@link Instant#toString()} gives, for any instant, and reads
 * back as {@link Instant#parse} does, for any text: the same instant or the same refusal.
 */
class SentAtTest {

  @Test
  void formatsAsInstantToStringDoes() {
    Random random = new Random(7);
    for (int i = 0; i < 100_000; i++) {
      Instant instant = randomInstant(random);
      assertThat(SentAt.format(instant)).isEqualTo(instant.toString());
    }
  }

  @Test
  void edgesOfTheFraction() {
    for (int nano : new int[] {1, 10, 999_999_999, 1_000, 999_000, 1_000_000, 100_000_000}) {
      Instant instant = Instant.ofEpochSecond(1_800_000_000L, nano);
      assertThat(SentAt.format(instant)).isEqualTo(instant.toString());
    }
  }

  @Test
  void parsesWhatItFormats() {
    Random random = new Random(11);
    for (int i = 0; i < 100_000; i++) {
      Instant instant = randomInstant(random);
      assertThat(SentAt.parse(SentAt.format(instant))).isEqualTo(instant);
    }
  }

  @Test
  void fractionsOfAnyLengthAsTheParserReadsThem() {
    String second = "2026-12-07T09:05:21";
    for (String fraction : new String[] {"", ".1", ".12", ".1234", ".12345678", ".123456789"}) {
      String text = second + fraction + "Z";
      assertThat(SentAt.parse(text)).isEqualTo(Instant.parse(text));
    }
  }

  @Test
  void acceptsAndRefusesWhatInstantParseDoes() {
    // Texts one character away from valid ones, and the forms only the parser reads (offsets,
    // leap seconds, the end of a day, long years): the same instant, or the same refusal.
    Random random = new Random(13);
    String alphabet = "0123456789-:.TZ+ x";
    for (int i = 0; i < 50_000; i++) {
      char[] text = SentAt.format(randomInstant(random)).toCharArray();
      text[random.nextInt(text.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
      assertParsesAsInstantParse(new String(text));
    }
    for (String text :
        new String[] {
          "2026-12-07T23:59:60Z",
          "2026-12-07T23:59:60.5Z",
          "2026-12-07T24:00:00Z",
          "2026-12-07T24:00:00.5Z", // the end of a day takes no fraction: refused
          "2026-12-07T24:00:00.000000001Z",
          "+10000-01-01T00:00:00.5Z",
          "-0001-12-31T23:59:59.5Z",
          "2026-12-07T09:05:21+01:00",
          "+12026-12-07T09:05:21Z",
          "2026-02-30T09:05:21.5Z",
          "2026-12-07T09:05:21.Z",
          "2026-12-07T09:05:21.1234567890Z",
          "2026-12-07T09:05Z",
          "",
        }) {
      assertParsesAsInstantParse(text);
    }
  }

  private static void assertParsesAsInstantParse(String text) {
    Instant expected;
    try {
      expected = Instant.parse(text);
    } catch (DateTimeParseException refused) {
      assertThatThrownBy(() -> SentAt.parse(text))
          .as(text)
          .isInstanceOf(DateTimeParseException.class);
      return;
    }
    assertThat(SentAt.parse(text)).as(text).isEqualTo(expected);
  }

  private static Instant randomInstant(Random random) {
    long now = Instant.parse("2026-12-02T10:00:00Z").getEpochSecond();
    long second =
        random.nextInt(4) == 0
            ? random.nextLong(-400_000_000_000L, 400_000_000_000L) // years -10700 to 14600
            : now + random.nextInt(3);
    int nano =
        switch (random.nextInt(4)) {
          case 0 -> 0;
          case 1 -> random.nextInt(1_000) * 1_000_000;
          case 2 -> random.nextInt(1_000_000) * 1_000;
          default -> random.nextInt(1_000_000_000);
        };
    return Instant.ofEpochSecond(second, nano);
  }
}
