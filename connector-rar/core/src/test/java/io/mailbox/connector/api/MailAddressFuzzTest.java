package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Fuzzing MailAddress.parse (issue 20): whatever the text, it is an address whose canonical form
 * parses back to itself, or a refusal with one of the two documented codes; never another
 * exception. Half the inputs are shaped like addresses (scheme, ':', '//', user, '@', host, path,
 * query), so the generator reaches the inner checks, not only the first one.
 */
class MailAddressFuzzTest {
  private static final Set<ErrorCode> DOCUMENTED =
      Set.of(ErrorCode.MALFORMED_ADDRESS, ErrorCode.ADDRESS_HAS_QUERY_OR_FRAGMENT);

  @Property(tries = 10_000)
  void anyTextIsAnAddressThatRoundTripsOrACodedRefusal(@ForAll("addressLike") String text) {
    MailAddress address;
    try {
      address = MailAddress.parse(text);
    } catch (MailboxException e) {
      assertThat(e).isInstanceOf(InvalidAddressException.class);
      assertThat(DOCUMENTED).contains(e.errorCode());
      assertThat(e.getMessage()).startsWith(e.errorCode().code() + " ");
      return;
    }
    assertThat(MailAddress.parse(address.toString())).isEqualTo(address);
    assertThat(address.toString()).doesNotContain("?", "#").doesNotContainAnyWhitespaces();
  }

  @Example
  void aVeryLongUserHostOrPathIsParsedWithoutOverflowingTheStack() {
    // A 5,000-character user part overflowed the stack (recursive regular expressions).
    String user = "u".repeat(100_000);
    String host = "h.".repeat(50_000) + "h";
    String path = "%20".repeat(50_000);

    assertThat(MailAddress.parse("mem:" + user + "@" + host + "/" + path).user()).hasSize(100_000);
  }

  @Provide
  Arbitrary<String> addressLike() {
    Arbitrary<String> any = Arbitraries.strings().all().ofMaxLength(60);
    Arbitrary<String> piece =
        Arbitraries.oneOf(
            Arbitraries.strings().withChars("aZ09.-_~%!$&'()*+,;=:@/?#[] \t\n").ofMaxLength(12),
            Arbitraries.strings().all().ofMaxLength(4),
            Arbitraries.of("", "%2F", "%zz", "%", ".", "..", "xn--d1a", "K", "\u212a"),
            // Now and then a long run, where recursion and backtracking would show.
            Arbitraries.strings().withChars("a%2.-").ofLength(3_000));
    Arbitrary<String> shaped =
        Combinators.combine(
                Arbitraries.of("mem", "MEM", "amqp", "jdbc", "1x", "", "a+b.c-d"),
                Arbitraries.of(":", "://", ":/", "", "::"),
                piece,
                Arbitraries.of("@", "", "@@"),
                piece,
                Arbitraries.of("/", "", "//", "?", "#"),
                piece)
            .as((s, c, u, at, h, sep, p) -> s + c + u + at + h + sep + p);
    return Arbitraries.frequencyOf(Tuple.of(1, any), Tuple.of(3, shaped));
  }
}
