package io.mailbox.ejb.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import org.junit.jupiter.api.Test;

class MessageOperationsCopyTest {

  @Test
  void aMovedCopyKeepsTheSendersIdBodyAndHeadersAndIsMarkedWithWhereFromAndByWhom() {
    MailMessage queued =
        MailMessage.to("jdbc:orders@shop/placed")
            .id("m-1")
            .body("{\"order\":1}")
            .header("tenant", "eu")
            .meta("trace", "t-1")
            .build();

    MailMessage copy =
        MessageOperations.copy(
            queued, MailAddress.parse("jdbc:orders@shop/held"), "jdbc://orders@shop/placed", "ops");

    assertThat(copy.to()).isEqualTo(MailAddress.parse("jdbc:orders@shop/held"));
    assertThat(copy.id()).isEqualTo("m-1");
    assertThat(copy.body()).isEqualTo("{\"order\":1}");
    assertThat(copy.header("tenant")).contains("eu");
    assertThat(copy.meta()).containsEntry("trace", "t-1");
    assertThat(copy.header(MessageOperations.MOVED_FROM)).contains("jdbc://orders@shop/placed");
    assertThat(copy.header(MessageOperations.MOVED_BY)).contains("ops");
  }
}
