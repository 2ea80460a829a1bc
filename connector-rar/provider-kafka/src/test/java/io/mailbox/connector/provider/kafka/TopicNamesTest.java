package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopicNamesTest {
  private final TopicNames names = new TopicNames("mailbox.");

  @Test
  void aTopicIsThePrefixAndTheMailboxWithEveryOtherCharacterEscaped() {
    assertThat(names.topic(MailAddress.parse("kafka://orders@shop/placed")))
        .isEqualTo("mailbox.orders_40shop_2Fplaced");
    assertThat(names.topic(MailAddress.parse("kafka://a_b@c.d/e-f")))
        .isEqualTo("mailbox.a_5Fb_40c.d_2Fe-f");
  }

  @Test
  void everyTopicIsMadeOfCharactersKafkaAllows() {
    String topic = names.topic(MailAddress.parse("kafka://order+x@shop.example/a%20b~c/d"));
    assertThat(topic).matches("[a-zA-Z0-9._-]+");
  }

  @Test
  void theMappingIsInjectiveAndReadsBack() {
    List<String> addresses =
        List.of(
            "kafka://a@b/c",
            "kafka://a@b/c.parked",
            "kafka://a_40b@c",
            "kafka://a@b/c_2F",
            "kafka://a@b/c/d",
            "kafka://a@b/%C3%A9",
            "kafka://a@b/x~y+z",
            "kafka://a@b");
    Set<String> topics = new HashSet<>();
    for (String text : addresses) {
      MailAddress address = MailAddress.parse(text);
      String topic = names.topic(address);
      assertThat(topics.add(topic)).as("%s has a topic of its own", text).isTrue();
      assertThat(names.address(topic)).contains(address);
    }
  }

  @Test
  void aParkedTopicNeverEqualsAnAddressTopic() {
    // '_' is always followed by two hex digits in an escaped name; "_parked" cannot come out of it.
    String parkedOfC = names.topic(MailAddress.parse("kafka://a@b/c")) + "_parked";
    assertThat(names.address(parkedOfC)).isEmpty();
  }

  @Test
  void aTopicOfAnotherPrefixIsNotOurs() {
    assertThat(names.address("orders")).isEmpty();
    assertThat(names.address("__consumer_offsets")).isEmpty();
  }

  @Test
  void anAddressWhoseTopicWouldNotFitIsRefusedWithACode() {
    MailAddress tooLong = MailAddress.parse("kafka://a@b/" + "x".repeat(240));

    assertThatThrownBy(() -> names.topic(tooLong))
        .hasMessageStartingWith(ErrorCode.MALFORMED_ADDRESS.code())
        .hasMessageContaining("Kafka allows 249");
  }

  @Test
  void theDerivedGroupKeepsTheTopicRecoverable() {
    String group = TopicNames.derivedGroup("mailbox", "mailbox.a_40b");
    assertThat(group).isEqualTo("mailbox:mailbox.a_40b");
    assertThat(group.substring(group.lastIndexOf(':') + 1)).isEqualTo("mailbox.a_40b");
  }
}
