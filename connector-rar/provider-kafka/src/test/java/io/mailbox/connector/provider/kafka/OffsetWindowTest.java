package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OffsetWindowTest {

  @Test
  void nothingHandedOutNothingToCommit() {
    assertThat(new OffsetWindow(7).committable()).isEmpty();
  }

  @Test
  void theCommitStopsAtTheLowestUnsettledRecord() {
    OffsetWindow window = new OffsetWindow(10);
    window.handedOut(10);
    window.handedOut(11);
    window.handedOut(12);

    window.settled(11);
    window.settled(12);
    assertThat(window.committable()).isEmpty(); // 10 is still out: never commit past it

    window.settled(10);
    assertThat(window.committable()).hasValue(13);
  }

  @Test
  void aCommittedOffsetIsNotOfferedAgain() {
    OffsetWindow window = new OffsetWindow(0);
    window.handedOut(0);
    window.handedOut(1);
    window.settled(0);
    assertThat(window.committable()).hasValue(1);
    window.committed(1);

    assertThat(window.committable()).isEmpty();
    window.settled(1);
    assertThat(window.committable()).hasValue(2);
  }

  @Test
  void settledButNotCommittedRecordsAreCounted() {
    OffsetWindow window = new OffsetWindow(0);
    window.handedOut(0);
    window.handedOut(1);
    window.handedOut(2);
    window.settled(0);
    window.settled(2);

    assertThat(window.unsettledCount()).isEqualTo(1);
    assertThat(window.settledNotCommitted()).isEqualTo(2);
    window.committed(1);
    assertThat(window.settledNotCommitted()).isEqualTo(1);
  }

  @Test
  void aRecordHandedOutAgainAfterARetryIsTrackedOnce() {
    OffsetWindow window = new OffsetWindow(5);
    window.handedOut(5);
    window.handedOut(5); // the retry of an unhandled record
    window.settled(5);

    assertThat(window.committable()).hasValue(6);
  }
}
