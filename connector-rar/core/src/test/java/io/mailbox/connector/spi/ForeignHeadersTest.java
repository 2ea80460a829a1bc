package io.mailbox.connector.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A foreign header value read from bytes is made plain exactly as the decoded text would be. */
class ForeignHeadersTest {

  @Test
  void plainTextOfBytesIsPlainTextOfTheirUtf8() {
    Random random = new Random(23);
    for (int i = 0; i < 50_000; i++) {
      byte[] bytes = new byte[random.nextInt(4) == 0 ? random.nextInt(1_100) : random.nextInt(40)];
      int kind = random.nextInt(4);
      for (int at = 0; at < bytes.length; at++) {
        bytes[at] =
            switch (kind) {
              case 0 -> (byte) (0x20 + random.nextInt(0x5f)); // printable ASCII
              case 1 -> (byte) random.nextInt(0x80); // ASCII with controls and DEL
              default -> (byte) random.nextInt(256); // anything, not always UTF-8
            };
      }
      assertThat(ForeignHeaders.plainText(bytes))
          .isEqualTo(ForeignHeaders.plainText(new String(bytes, StandardCharsets.UTF_8)));
    }
  }

  @Test
  void controlsAndLongValuesAreStillCleaned() {
    assertThat(ForeignHeaders.plainText("a\u0007b\u007fc".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("abc");
    assertThat(ForeignHeaders.plainText("x".repeat(2_000).getBytes(StandardCharsets.UTF_8)))
        .hasSize(ForeignHeaders.MAX_VALUE_CHARS);
    assertThat(ForeignHeaders.plainText("é".repeat(600).getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("é".repeat(512));
  }
}
