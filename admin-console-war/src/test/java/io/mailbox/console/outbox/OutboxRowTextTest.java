package io.mailbox.console.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.outbox.OutboxRow;
import io.mailbox.ejb.outbox.OutboxStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OutboxRowTextTest {
  private static OutboxRow failed(String error, long createdAt) {
    return new OutboxRow(
        "id-1",
        "orders.placed.v1",
        "jdbc:orders@shop/placed",
        "{}",
        "k",
        null,
        null,
        null,
        "p",
        createdAt,
        OutboxStatus.FAILED,
        10,
        0,
        3,
        0,
        error,
        null);
  }

  @Test
  void theSummarySaysWhatWaitsAndWhatIsStuck() {
    String text =
        OutboxRowText.summary(
            new OutboxOperations.OutboxSummary(4, 2, 1, Duration.ofMinutes(3), 5));

    assertThat(text)
        .isEqualTo(
            "4 pending (oldest: 3 min old) · 2 failed, of which 1 invalid · 5 parked inbox"
                + " deliveries");
    assertThat(OutboxRowText.summary(new OutboxOperations.OutboxSummary(0, 0, 0, null, 0)))
        .startsWith("0 pending (oldest: none)");
  }

  @Test
  void longErrorsAreCutAndAgesAreReadable() {
    OutboxRow row = failed("x".repeat(500), Instant.parse("2026-11-30T10:00:00Z").toEpochMilli());

    assertThat(OutboxRowText.error(row)).hasSize(OutboxRowText.ERROR_CHARS).endsWith("…");
    assertThat(OutboxRowText.age(row, Instant.parse("2026-11-30T12:05:00Z")))
        .isEqualTo("2 h 5 min");
    assertThat(OutboxRowText.ago(Duration.ofSeconds(42))).isEqualTo("42 s");
    assertThat(OutboxRowText.ago(Duration.ofDays(3))).isEqualTo("3 d");
  }

  @Test
  void aPartialReleaseSaysSo() {
    assertThat(OutboxRowText.released(2, 2, true)).isEqualTo("2 row(s) returned to pending.");
    assertThat(OutboxRowText.released(1, 3, false))
        .isEqualTo("1 of 3 row(s) discarded; the others were no longer failed.");
  }
}
