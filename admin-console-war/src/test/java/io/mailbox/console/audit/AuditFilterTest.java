package io.mailbox.console.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.audit.AuditEntry;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AuditFilterTest {
  private final AuditEntry entry =
      new AuditEntry(
          Instant.EPOCH,
          "ops",
          "outbox.release-retry",
          "id-1,id-2",
          2,
          AuditEntry.Result.SUCCEEDED);

  @Test
  void everyWordMustAppearSomewhereCaseInsensitively() {
    assertThat(AuditFilter.matches(entry, "")).isTrue();
    assertThat(AuditFilter.matches(entry, "OPS release")).isTrue();
    assertThat(AuditFilter.matches(entry, "id-2 succeeded")).isTrue();
    assertThat(AuditFilter.matches(entry, "ops refused")).isFalse();
  }
}
