package io.mailbox.ejb.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AuditedChangeTest {
  /** An audit log that keeps what it was told, in order, and can be made to fail. */
  static final class RecordingAuditLog extends AuditLog {
    final List<String> events = new ArrayList<>();
    boolean beginFails;
    boolean completeFails;

    @Override
    public String begin(String actor, String action, String target) {
      if (beginFails) {
        throw new IllegalStateException("value too long for column TARGET");
      }
      events.add("begin " + actor + " " + action + " " + target);
      return "entry-1";
    }

    @Override
    public void complete(String entryId, long affected, AuditEntry.Result result) {
      if (completeFails) {
        throw new IllegalStateException("database gone");
      }
      events.add("complete " + entryId + " " + affected + " " + result);
    }
  }

  private final RecordingAuditLog audit = new RecordingAuditLog();
  private final AtomicInteger changes = new AtomicInteger();

  private int change() {
    audit.events.add("change");
    return changes.incrementAndGet() * 20;
  }

  @Test
  void theRecordIsWrittenBeforeTheChangeAndCompletedWithItsOutcome() {
    int discarded =
        AuditedChange.run(
            audit,
            "ops",
            "outbox.release-discard",
            "20 rows",
            this::change,
            AuditedChange.Outcome::succeeded);

    assertThat(discarded).isEqualTo(20);
    assertThat(audit.events)
        .containsExactly(
            "begin ops outbox.release-discard 20 rows", "change", "complete entry-1 20 SUCCEEDED");
  }

  @Test
  void whenTheRecordCannotBeWrittenTheChangeNeverRuns() {
    audit.beginFails = true;

    assertThatThrownBy(
            () ->
                AuditedChange.run(
                    audit, "ops", "outbox.release-discard", "x", this::change, r -> null))
        .hasMessageContaining("TARGET");
    assertThat(changes).hasValue(0);
  }

  @Test
  void aFailedChangeCompletesItsRecordAsFailedAndStillFails() {
    assertThatThrownBy(
            () ->
                AuditedChange.run(
                    audit,
                    "ops",
                    "address.purge",
                    "jdbc:a@b",
                    () -> {
                      throw new IllegalStateException("provider down");
                    },
                    AuditedChange.Outcome::succeeded))
        .hasMessage("provider down");
    assertThat(audit.events)
        .containsExactly("begin ops address.purge jdbc:a@b", "complete entry-1 0 FAILED");
  }

  @Test
  void aChangeThatRanKeepsItsAnswerWhenTheCompletionCannotBeWritten() {
    audit.completeFails = true;

    int purged =
        AuditedChange.run(
            audit,
            "ops",
            "address.purge",
            "jdbc:a@b",
            this::change,
            AuditedChange.Outcome::succeeded);

    assertThat(purged).isEqualTo(20);
    assertThat(audit.events).containsExactly("begin ops address.purge jdbc:a@b", "change");
  }
}
