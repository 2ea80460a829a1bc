package io.mailbox.connector.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A stable id is the version-3 UUID {@code UUID.nameUUIDFromBytes} gives for the parts joined by
 * NUL, as it was before the digest was kept per thread: keys of foreign messages already handed out
 * (a redelivery an inbox must recognize) stay the same across an upgrade.
 */
class IdsTest {

  @Test
  void aStableIdIsTheNameBasedUuidOfThePartsJoinedByNul() {
    Random random = new Random(3);
    for (int i = 0; i < 20_000; i++) {
      String[] parts = new String[1 + random.nextInt(4)];
      for (int p = 0; p < parts.length; p++) {
        parts[p] = randomText(random);
      }
      assertThat(Ids.stable(parts)).isEqualTo(reference(parts));
    }
  }

  @Test
  void aKafkaRecordsKeyIsTheSameAsBefore() {
    // topic, partition, offset: what KafkaRecords identifies a foreign record by.
    assertThat(Ids.stable("mailbox.orders_shop.placed", "0", "42"))
        .isEqualTo(reference("mailbox.orders_shop.placed", "0", "42"))
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  }

  @Test
  void aNullPartIsHashedAsTheTextNullAsBefore() {
    assertThat(Ids.stable("topic", null, "7")).isEqualTo(reference("topic", null, "7"));
  }

  @Test
  void threadsDoNotShareADigest() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    ConcurrentHashMap<String, String> wrong = new ConcurrentHashMap<>();
    for (int t = 0; t < 4; t++) {
      pool.execute(
          () -> {
            for (int i = 0; i < 20_000; i++) {
              String offset = Integer.toString(i);
              if (!Ids.stable("topic", "1", offset).equals(reference("topic", "1", offset))) {
                wrong.put(offset, Thread.currentThread().getName());
              }
            }
          });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    assertThat(wrong).isEmpty();
  }

  private static String reference(String... parts) {
    return UUID.nameUUIDFromBytes(String.join("\u0000", parts).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  private static String randomText(Random random) {
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(40);
    for (int i = 0; i < length; i++) {
      // ASCII, other scripts, a NUL now and then, and surrogate pairs.
      int kind = random.nextInt(10);
      if (kind == 0) {
        text.append('\u0000');
      } else if (kind == 1) {
        text.appendCodePoint(0x1F600 + random.nextInt(50));
      } else if (kind == 2) {
        text.append((char) (0x0400 + random.nextInt(200)));
      } else {
        text.append((char) (' ' + random.nextInt(95)));
      }
    }
    return text.toString();
  }
}
