package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AcceptedRecordsTest {
  private final AtomicLong now = new AtomicLong();
  private final AcceptedRecords records = new AcceptedRecords(now::get);

  @Test
  void anAcceptedRecordIsTakenUntilConfirmedAndForTheGraceAfter() {
    records.accepted(0, 7);
    assertThat(records.taken(0, 7)).isTrue();
    assertThat(records.notConfirmed()).isEqualTo(1);

    records.confirmed(0, 7);
    assertThat(records.notConfirmed()).isZero();
    now.addAndGet(AcceptedRecords.GRACE_NANOS);
    assertThat(records.taken(0, 7)).as("within the grace").isTrue();
    now.addAndGet(1);
    assertThat(records.taken(0, 7)).as("after the grace").isFalse();
  }

  @Test
  void confirmationsOlderThanTheGraceAreForgottenOldestFirst() {
    for (long offset = 0; offset < 1_000; offset++) {
      records.accepted(0, offset);
      records.confirmed(0, offset);
      now.addAndGet(TimeUnit.MILLISECONDS.toNanos(20)); // 1,000 over 20 s
    }
    // The last confirmation came at 19.98 s: those before 9.98 s are forgotten, the rest kept.
    assertThat(records.remembered()).isBetween(500, 501);
    assertThat(records.taken(0, 0)).isFalse();
    assertThat(records.taken(0, 999)).isTrue();
  }

  @Test
  void anUndoneAcceptanceIsNotTakenAndNeverConfirmed() {
    records.accepted(1, 3);
    records.undone(1, 3);
    records.confirmed(1, 3); // a late answer for an acceptance given up
    assertThat(records.taken(1, 3)).isFalse();
    assertThat(records.remembered()).isZero();
  }

  @Test
  void clearingForgetsEverything() {
    records.accepted(0, 1);
    records.accepted(0, 2);
    records.confirmed(0, 2);
    records.clear();
    assertThat(records.notConfirmed()).isZero();
    assertThat(records.remembered()).isZero();
    assertThat(records.taken(0, 1)).isFalse();
  }
}
