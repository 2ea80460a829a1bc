package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MailMessageTest {

  @Test
  void aMessageWithoutIdGetsAUniqueOne() {
    MailMessage first = MailMessage.to("mem:a@b").body("x").build();
    MailMessage second = MailMessage.to("mem:a@b").body("x").build();

    assertThat(first.id()).isNotBlank().isNotEqualTo(second.id());
  }

  @Test
  void bodyIsRequired() {
    assertThatThrownBy(() -> MailMessage.to("mem:a@b").build()).hasMessageStartingWith("MBX-1004");
  }

  @Test
  void blankHeaderNamesAreRefused() {
    assertThatThrownBy(() -> MailMessage.to("mem:a@b").header(" ", "v"))
        .hasMessageStartingWith("MBX-1004");
  }

  @Test
  void toStringNeverContainsTheBody() {
    MailMessage message = MailMessage.to("mem:a@b").body("secret-card-number").build();

    assertThat(message.toString()).doesNotContain("secret-card-number").contains(message.id());
  }

  @Test
  void headersAreReadOnly() {
    MailMessage message = MailMessage.to("mem:a@b").body("").header("k", "v").build();

    assertThatThrownBy(() -> message.headers().put("k", "w"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void retriableFailuresAreRecognisedThroughWrappers() {
    RuntimeException wrapped = new RuntimeException(new RetriableDeliveryException("later"));

    assertThat(Disposition.of(wrapped)).isEqualTo(Disposition.UNHANDLED);
    assertThat(Disposition.of(new IllegalStateException())).isEqualTo(Disposition.DISCARD);
    assertThat(Disposition.of(null)).isEqualTo(Disposition.HANDLED);
  }
}
