package io.mailbox.ejb.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing marker ids (issue 20): two different (consumer, topic, id) triples never share an id,
 * however their fields split the same characters; the inputs are made from few characters, line
 * breaks and surrogates included, so that near-collisions are common.
 */
class InboxMarkerIdFuzzTest {
  @Property(tries = 10_000)
  void differentTriplesHaveDifferentIds(
      @ForAll("field") String c1,
      @ForAll("field") String t1,
      @ForAll("field") String e1,
      @ForAll("field") String c2,
      @ForAll("field") String t2,
      @ForAll("field") String e2) {
    boolean same = c1.equals(c2) && t1.equals(t2) && e1.equals(e2);
    assertThat(InboxProcessor.markerId(c1, t1, e1).equals(InboxProcessor.markerId(c2, t2, e2)))
        .isEqualTo(same);
  }

  @Provide
  Arbitrary<String> field() {
    return Arbitraries.strings().withChars("a\n\u0000\ud800\udc00").ofMaxLength(4);
  }
}
