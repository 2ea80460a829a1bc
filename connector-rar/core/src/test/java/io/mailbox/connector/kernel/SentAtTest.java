package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The cached sent-at stamp is the text {@link Instant#toString()} gives, for any instant. */
class SentAtTest {

  @Test
  void formatsAsInstantToStringDoes() {
    Random random = new Random(7);
    long now = Instant.parse("2026-12-02T10:00:00Z").getEpochSecond();
    for (int i = 0; i < 100_000; i++) {
      long second =
          random.nextInt(4) == 0
              ? random.nextLong(-10_000_000_000L, 300_000_000_000L)
              : now + random.nextInt(3);
      int nano =
          switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1_000) * 1_000_000;
            case 2 -> random.nextInt(1_000_000) * 1_000;
            default -> random.nextInt(1_000_000_000);
          };
      Instant instant = Instant.ofEpochSecond(second, nano);
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
}
