package io.mailbox.console.parked;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.SystemHeaders;
import org.junit.jupiter.api.Test;

class ParkedRecordTest {
  @Test
  void aRecordShowsWhyWhereAndABoundedPreview() {
    MailMessage parked =
        MailMessage.to("jdbc:billing@shop/invoices_dlq")
            .id("order-7")
            .header(SystemHeaders.SEND_ID, "key-7")
            .header(SystemHeaders.DEAD_LETTER_REASON, "fatal")
            .header(SystemHeaders.DEAD_LETTER_TOPIC, "jdbc://billing@shop/invoices")
            .header(SystemHeaders.DEAD_LETTER_ATTEMPTS, "3")
            .header(SystemHeaders.DEAD_LETTER_ERROR, "java.lang.IllegalStateException: no")
            .body("b".repeat(5_000))
            .build();

    ParkedRecord record = ParkedRecord.of(parked);

    assertThat(record.key()).isEqualTo("key-7");
    assertThat(record.reason()).isEqualTo("fatal");
    assertThat(record.source()).isEqualTo("jdbc://billing@shop/invoices");
    assertThat(record.attempts()).isEqualTo("3");
    assertThat(record.details())
        .contains("mbx-dead-letter-reason: fatal")
        .contains("5000 characters, first 2000 shown")
        .hasSizeLessThan(2_600);
  }

  @Test
  void purgingAllNeedsTheAddressTypedExactly() {
    assertThat(io.mailbox.console.layout.ConsoleText.confirms(" jdbc:a@b/c ", "jdbc:a@b/c"))
        .isTrue();
    assertThat(io.mailbox.console.layout.ConsoleText.confirms("jdbc:a@b", "jdbc:a@b/c")).isFalse();
    assertThat(io.mailbox.console.layout.ConsoleText.confirms(null, "jdbc:a@b/c")).isFalse();
  }

  @Test
  void aProviderThatCannotListParkedRecordsSaysSo() {
    RuntimeException wrapped =
        new RuntimeException(
            new MailboxException(
                ErrorCode.UNSUPPORTED_CAPABILITY, "amqp: does not support parked"));

    assertThat(io.mailbox.console.layout.ConsoleText.refusal(wrapped)).startsWith("MBX-1007");
  }
}
