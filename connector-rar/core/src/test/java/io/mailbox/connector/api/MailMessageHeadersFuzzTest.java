package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing message headers (issue 20): any name and value either make a message that keeps them
 * exactly, or are refused with MBX-1004; integer system headers never throw, whatever a foreign
 * producer put in them; a message's {@code toString} never shows its body.
 */
class MailMessageHeadersFuzzTest {
  @Property(tries = 10_000)
  void anyHeaderIsKeptExactlyOrRefusedWithItsCode(
      @ForAll("text") String name, @ForAll("text") String value, @ForAll("text") String body) {
    MailMessage message;
    try {
      message =
          MailMessage.to("mem:a@b/c").header(name, value).body("body:" + body).id("m-1").build();
    } catch (MailboxException e) {
      assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_MESSAGE);
      assertThat(name == null || name.isBlank() || value == null).isTrue();
      return;
    }
    assertThat(message.header(name)).contains(value);
    assertThat(message.toBuilder().build()).isEqualTo(message);
    assertThat(message.toString()).doesNotContain("body:");
  }

  @Property(tries = 10_000)
  void anIntegerSystemHeaderIsItsNumberOrTheFallbackNeverAnException(
      @ForAll("number") String value) {
    MailMessage message =
        MailMessage.to("mem:a@b/c").header(SystemHeaders.ROUND, value).body("").build();

    int read = SystemHeaders.intHeader(message, SystemHeaders.ROUND, -7);

    boolean decimal = value.matches("[+-]?[0-9]+");
    if (!decimal) {
      assertThat(read).isEqualTo(-7);
    } else if (read != -7) {
      assertThat(Long.parseLong(value)).isEqualTo(read);
    }
  }

  @Provide
  Arbitrary<String> text() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(40),
        Arbitraries.strings().withChars(" \t\r\n\u0000\u2028:;=mbx-").ofMaxLength(8),
        Arbitraries.of("", " ", "mbx-send-id", "MBX-ROUND", "Content-Type"),
        Arbitraries.just(null));
  }

  @Provide
  Arbitrary<String> number() {
    return Arbitraries.oneOf(
        Arbitraries.integers().map(String::valueOf),
        Arbitraries.longs().map(String::valueOf),
        Arbitraries.strings().withChars("+-0123456789 .eE٣").ofMaxLength(25));
  }
}
