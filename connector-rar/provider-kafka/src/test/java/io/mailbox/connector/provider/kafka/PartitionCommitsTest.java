package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What a peek asks of the reader's books: which records this member has handed out. */
class PartitionCommitsTest {
  private final TopicPartition zero = new TopicPartition("t", 0);
  private final PartitionCommits commits = new PartitionCommits("t", Duration.ofSeconds(1));

  @Test
  void recordsBeforeTheHighestHandedOutOfAHeldPartitionAreTaken() {
    commits.assigned(zero, 10);
    assertThat(commits.handedOut(0, 10)).as("nothing handed out yet").isFalse();

    assertThat(commits.handOut(zero, 10)).isTrue();
    assertThat(commits.handOut(zero, 11)).isTrue();
    commits.settled(zero, 10); // settled, not committed: still not waiting

    assertThat(commits.handedOut(0, 10)).isTrue();
    assertThat(commits.handedOut(0, 11)).isTrue();
    assertThat(commits.handedOut(0, 12)).as("polled, not handed out: waiting").isFalse();
    assertThat(commits.handedOut(1, 0)).as("another partition").isFalse();
  }

  @Test
  void aRecordPutBackOrWaitingForItsRetryWaitsAgainUntilHandedOutAgain() {
    commits.assigned(zero, 0);
    commits.handOut(zero, 0);
    commits.handOut(zero, 1);

    commits.queuedAgain(zero, 0);

    assertThat(commits.handedOut(0, 0)).as("queued again: a peek lists it").isFalse();
    assertThat(commits.handedOut(0, 1)).isTrue();
    commits.handOut(zero, 0);
    assertThat(commits.handedOut(0, 0)).as("handed out again").isTrue();
  }

  @Test
  void aPartitionNotHeldHandsNothingOutAndForgetsWhatItHad() {
    assertThat(commits.handOut(zero, 0)).as("never assigned").isFalse();
    assertThat(commits.handedOut(0, 0)).isFalse();

    commits.assigned(zero, 0);
    commits.handOut(zero, 5);
    commits.forget(List.of(zero));

    assertThat(commits.handedOut(0, 3)).as("revoked: its new owner's records").isFalse();
  }
}
