package io.mailbox.ejb.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import org.junit.jupiter.api.Test;

class DeadLetterReplayTest {
  private static MailMessage record(String replayCount) {
    MailMessage.Builder record =
        MailMessage.to("jdbc:billing@shop/invoices_dlq")
            .id("order-9")
            .from("jdbc:shop@web/checkout")
            .meta("tenant", "acme")
            .header("content-type", "application/json")
            .header(SystemHeaders.SEND_ID, "key-1")
            .header(SystemHeaders.DEAD_LETTER_REASON, "fatal")
            .header(SystemHeaders.DEAD_LETTER_TOPIC, "jdbc://billing@shop/invoices")
            .body("{\"invoice\":9}");
    if (replayCount != null) {
      record.header(DeadLetterReplay.REPLAY_COUNT, replayCount);
    }
    return record.build();
  }

  @Test
  void aReplayGoesBackToWhereItWasGivenUpWithoutTheKernelsBookkeeping() {
    MailMessage copy = DeadLetterReplay.replayCopy(record(null), "jdbc:billing@shop/invoices_dlq");

    assertThat(copy.to().toString()).isEqualTo("jdbc://billing@shop/invoices");
    assertThat(copy.id()).isEqualTo("order-9");
    assertThat(copy.body()).isEqualTo("{\"invoice\":9}");
    assertThat(copy.meta()).containsEntry("tenant", "acme");
    assertThat(copy.from()).isPresent();
    assertThat(copy.headers())
        .containsEntry("content-type", "application/json")
        .containsEntry(DeadLetterReplay.REPLAY_COUNT, "1")
        .containsEntry(DeadLetterReplay.REPLAYED_FROM, "jdbc:billing@shop/invoices_dlq")
        .doesNotContainKeys(SystemHeaders.SEND_ID, SystemHeaders.DEAD_LETTER_REASON);
  }

  @Test
  void aMessageThatDiesAgainCountsItsReplays() {
    MailMessage copy = DeadLetterReplay.replayCopy(record("2"), "jdbc:billing@shop/invoices_dlq");

    assertThat(copy.header(DeadLetterReplay.REPLAY_COUNT)).contains("3");
    assertThat(DeadLetterReplay.replayCount(record("junk"))).isZero();
  }

  @Test
  void aRecordThatNamesNoOriginIsRefused() {
    MailMessage orphan = MailMessage.to("jdbc:x@y/z_dlq").id("o").body("{}").build();

    assertThatThrownBy(() -> DeadLetterReplay.replayCopy(orphan, "jdbc:x@y/z_dlq"))
        .hasMessageStartingWith("MBX-1004");
  }
}
