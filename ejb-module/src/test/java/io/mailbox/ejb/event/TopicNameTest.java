package io.mailbox.ejb.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one topic-name rule (issue 20, item 10): invisible and line-splitting characters are refused
 * by the rule and by a definition alike; the relay's use of it is pinned in OutboxTopicRuleTest.
 */
class TopicNameTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "orders\u2028placed.v1", // line separator
        "orders\u2029placed.v1", // paragraph separator
        "orders\u00a0placed.v1", // no-break space
        "orders\u3000placed.v1", // ideographic space
        "orders\u200bplaced.v1", // zero-width space (format)
        "orders\u202eplaced.v1", // right-to-left override (format)
        "orders\u0085placed.v1", // next line (C1 control)
        "orders placed.v1",
        "orders\nplaced.v1",
        "orders\ud800placed.v1", // lone high surrogate
        "orders\udc00placed.v1" // lone low surrogate
      })
  void invisibleOrLineSplittingCharactersAreRefusedByTheRuleAndByADefinition(String topic) {
    assertThat(TopicName.problem(topic)).isPresent();
    assertThat(TopicName.problem(topic).get()).doesNotContain(topic);
    assertThatThrownBy(() -> IntegrationEventDefinition.define("orders.placed", 1, topic, d -> d))
        .isInstanceOf(IntegrationEventRejectedException.class)
        .hasMessageStartingWith("MBX-3001 definition")
        .hasMessageContaining("U+")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(topic));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "orders.placed.v1",
        "commandes.passées.v1",
        "注文.v1",
        "emoji\ud83d\udce6.v1" // a well-formed surrogate pair (U+1F4E6)
      })
  void printableTopicsInAnyScriptPass(String topic) {
    assertThat(TopicName.problem(topic)).isEmpty();
    assertThat(IntegrationEventDefinition.define("orders.placed", 1, topic, d -> d).topic())
        .isEqualTo(topic);
  }

  @ParameterizedTest
  @ValueSource(ints = {255, 256})
  void aTopicMayHoldAtMost255BytesOfUtf8(int bytes) {
    String topic = "é".repeat((bytes - 3) / 2) + "x".repeat((bytes - 3) % 2) + ".v1";
    assertThat(topic.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(bytes);

    assertThat(TopicName.isValid(topic)).isEqualTo(bytes <= TopicName.MAX_BYTES);
  }
}
