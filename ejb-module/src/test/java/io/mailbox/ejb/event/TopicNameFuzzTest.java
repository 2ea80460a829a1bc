package io.mailbox.ejb.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing topic names (issue 20): a definition accepts exactly the topics the one rule accepts
 * (given the version suffix), an accepted topic has nothing invisible or line-splitting in it and
 * fits its column, and a refusal never quotes the refused topic.
 */
class TopicNameFuzzTest {
  @Property(tries = 10_000)
  void aDefinitionAcceptsExactlyWhatTheRuleAccepts(@ForAll("topics") String name) {
    String topic = name + ".v1";
    boolean valid = TopicName.isValid(topic);
    boolean defined;
    try {
      IntegrationEventDefinition.define("orders.placed", 1, topic, d -> d);
      defined = true;
    } catch (IntegrationEventRejectedException e) {
      defined = false;
      assertThat(e.getMessage()).startsWith("MBX-3001 definition: ");
      if (!valid) {
        assertThat(e.getMessage()).doesNotContain(topic);
      }
    }
    assertThat(defined).isEqualTo(valid && !name.isEmpty());
    if (valid) {
      assertThat(topic.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
      assertThat(topic.codePoints())
          .noneMatch(Character::isWhitespace)
          .noneMatch(Character::isISOControl)
          .noneMatch(Character::isSpaceChar)
          .noneMatch(c -> Character.getType(c) == Character.FORMAT)
          .noneMatch(c -> Character.getType(c) == Character.SURROGATE);
      assertThat(new String(topic.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
          .isEqualTo(topic);
    }
  }

  @Provide
  Arbitrary<String> topics() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(20),
        Arbitraries.strings().alpha().numeric().withChars(".-_").ofMaxLength(20),
        Arbitraries.strings()
            .withChars("ab.\u00a0\u2028\u2029\u3000\u200b\u202e\u0085\ufeff\ud800\udc00 \t")
            .ofMaxLength(10),
        Arbitraries.strings().withChars("é注").ofMinLength(120).ofMaxLength(130));
  }
}
