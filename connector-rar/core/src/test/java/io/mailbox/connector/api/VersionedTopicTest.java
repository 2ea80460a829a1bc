package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VersionedTopicTest {

  @Test
  void aTopicIsItsTypeAndItsVersion() {
    VersionedTopic topic = VersionedTopic.parse("orders.placed.v12", "outbox.topic");

    assertThat(topic.type()).isEqualTo("orders.placed");
    assertThat(topic.version()).isEqualTo(12);
    assertThat(topic).hasToString("orders.placed.v12");
    assertThat(VersionedTopic.parse("a.vault.v1", "x").type()).isEqualTo("a.vault");
  }

  @Test
  void aNameWithoutAUsableVersionIsRefusedNamingTheSetting() {
    for (String bad :
        new String[] {
          "orders.placed",
          ".v1",
          "orders.v",
          "orders.vX",
          "orders.v0",
          "orders.v-1",
          "orders.v99999999999",
          "orders.v 1",
          ""
        }) {
      assertThatThrownBy(() -> VersionedTopic.parse(bad, "inbox.topic"))
          .as(bad)
          .isInstanceOf(MailboxException.class)
          .hasMessageContaining("inbox.topic");
    }
    assertThatThrownBy(() -> VersionedTopic.parse(null, "outbox.topic"))
        .isInstanceOf(MailboxException.class);
  }
}
