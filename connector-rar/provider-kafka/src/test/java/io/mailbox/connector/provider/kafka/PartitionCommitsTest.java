package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The reader's books: which records this member has handed out (what a peek asks), and what it
 * commits, when. Kafka's {@code MockConsumer} stands in for the cluster: it records commits.
 */
class PartitionCommitsTest {
  private final TopicPartition zero = new TopicPartition("t", 0);
  private final AtomicLong nanos = new AtomicLong(System.nanoTime());
  private final PartitionCommits commits =
      new PartitionCommits("t", Duration.ofSeconds(1), nanos::get);

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

  @Test
  void whileRecordsFlowTheSettledPrefixIsCommittedAtMostEvery20Ms() {
    CountingConsumer consumer = new CountingConsumer();
    consumer.assign(List.of(zero));
    commits.assigned(zero, 0);
    for (long offset = 0; offset < 5; offset++) {
      commits.handOut(zero, offset);
      commits.settled(zero, offset);
    }

    commits.commitSettledNowAndThen(consumer);
    assertThat(committed(consumer)).as("due at once").isEqualTo(5);

    nanos.addAndGet(Duration.ofMillis(19).toNanos());
    commits.handOut(zero, 5);
    commits.settled(zero, 5);
    commits.count(); // as the reader does after settlements
    commits.commitSettledNowAndThen(consumer);
    assertThat(consumer.asyncCommits.get()).as("within 20 ms of the last: none").isEqualTo(1);
    assertThat(commits.settledNotCommitted()).as("settled, waiting for the next commit").isOne();

    nanos.addAndGet(Duration.ofMillis(1).toNanos());
    commits.handOut(zero, 6);
    commits.handOut(zero, 7);
    commits.settled(zero, 7); // 6 is still in hand
    commits.commitSettledNowAndThen(consumer);
    assertThat(consumer.asyncCommits.get()).isEqualTo(2);
    assertThat(committed(consumer)).as("never past a record in hand").isEqualTo(6);

    commits.settled(zero, 6);
    commits.commitBeforeRevoking(consumer, List.of(zero));
    assertThat(committed(consumer))
        .as("at a revocation: at once, whatever the interval")
        .isEqualTo(8);
    assertThat(commits.settledNotCommitted()).isZero();
  }

  private long committed(MockConsumer<byte[], byte[]> consumer) {
    OffsetAndMetadata at = consumer.committed(Set.of(zero)).get(zero);
    return at == null ? -1 : at.offset();
  }

  /** Counts the background commits the books ask for. */
  private static final class CountingConsumer extends MockConsumer<byte[], byte[]> {
    final AtomicInteger asyncCommits = new AtomicInteger();

    CountingConsumer() {
      super("earliest");
    }

    @Override
    public synchronized void commitAsync(
        java.util.Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
      asyncCommits.incrementAndGet();
      super.commitAsync(offsets, callback);
    }
  }
}
