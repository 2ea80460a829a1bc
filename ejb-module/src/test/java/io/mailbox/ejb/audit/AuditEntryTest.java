package io.mailbox.ejb.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class AuditEntryTest {

  @Test
  void everyEntryGetsItsOwnId() {
    AuditEntry first =
        new AuditEntry(Instant.EPOCH, "ops", "purge", "mem:a@b", 2, AuditEntry.Result.SUCCEEDED);
    AuditEntry second =
        new AuditEntry(Instant.EPOCH, "ops", "purge", "mem:a@b", 2, AuditEntry.Result.SUCCEEDED);

    assertThat(first.id()).isNotEqualTo(second.id());
    assertThat(first).isNotEqualTo(second);
  }

  @Test
  void anEntryWithoutActorOrActionIsRefused() {
    assertThatThrownBy(
            () -> new AuditEntry(Instant.EPOCH, " ", "purge", null, 0, AuditEntry.Result.FAILED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("actor");
    assertThatThrownBy(
            () -> new AuditEntry(Instant.EPOCH, "ops", null, null, 0, AuditEntry.Result.FAILED))
        .hasMessageContaining("action");
  }

  @Test
  void aTargetLongerThanItsColumnIsCutWithAMarkerSayingHowMuchWasLeftOut() {
    String twentyIds =
        String.join(
            ",",
            java.util.stream.Stream.generate(() -> java.util.UUID.randomUUID().toString())
                .limit(20)
                .toList());
    AuditEntry entry =
        new AuditEntry(
            Instant.EPOCH,
            "o".repeat(300),
            "outbox.release-discard",
            twentyIds,
            20,
            AuditEntry.Result.SUCCEEDED);

    assertThat(twentyIds).hasSizeGreaterThan(AuditEntry.TARGET_LENGTH);
    assertThat(entry.target()).hasSize(AuditEntry.TARGET_LENGTH).endsWith(" chars]");
    assertThat(entry.target()).startsWith(twentyIds.substring(0, 400));
    int kept = entry.target().indexOf("…[+");
    assertThat(entry.target()).endsWith("…[+" + (twentyIds.length() - kept) + " chars]");
    assertThat(entry.actor()).hasSize(AuditEntry.ACTOR_LENGTH).contains("…[+");
  }

  @Test
  void aCutNeverSplitsASurrogatePair() {
    String text = "\uD83D\uDCE6".repeat(400);

    String cut = AuditEntry.fit(text, AuditEntry.TARGET_LENGTH);

    assertThat(cut.length()).isLessThanOrEqualTo(AuditEntry.TARGET_LENGTH);
    String kept = cut.substring(0, cut.indexOf("…[+"));
    assertThat(Character.isHighSurrogate(kept.charAt(kept.length() - 1))).isFalse();
  }

  @Test
  void aStartedEntryIsCompletedOnceAndOnlyOnce() {
    AuditEntry entry =
        new AuditEntry(
            Instant.EPOCH, "ops", "address.purge", "mem:a@b", 0, AuditEntry.Result.STARTED);

    entry.complete(3, AuditEntry.Result.SUCCEEDED);

    assertThat(entry.affected()).isEqualTo(3);
    assertThat(entry.result()).isEqualTo(AuditEntry.Result.SUCCEEDED);
    assertThatThrownBy(() -> entry.complete(4, AuditEntry.Result.FAILED))
        .isInstanceOf(IllegalStateException.class);
  }
}
