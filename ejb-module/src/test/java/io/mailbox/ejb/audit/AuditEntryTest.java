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
}
