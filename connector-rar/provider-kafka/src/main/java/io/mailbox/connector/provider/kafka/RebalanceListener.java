package io.mailbox.connector.provider.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

/**
 * What a {@link TopicReader} does when its group moves partitions, on the poll thread: before a
 * partition goes it gives subscribers a short grace to settle what they hold of it, commits its
 * settled prefix and forgets its records (their late settlements change nothing; the new owner
 * reads them again from the committed offset). A new partition starts a window at its position.
 */
final class RebalanceListener implements ConsumerRebalanceListener {
  private static final Logger LOG = Logger.getLogger(RebalanceListener.class.getName());
  private static final Duration REVOKE_GRACE = Duration.ofSeconds(2);

  private final TopicReader reader;
  private final String group;

  RebalanceListener(TopicReader reader, String group) {
    this.reader = reader;
    this.group = group;
  }

  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
    LOG.info(() -> "Group " + group + " takes back " + revoked + " from this server");
    awaitSettlements(revoked);
    try {
      reader.partitions().commitBeforeRevoking(reader.consumer(), revoked);
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "Could not commit a revoked partition (redelivered)", e);
    }
    reader.forget(revoked);
  }

  @Override
  public void onPartitionsLost(Collection<TopicPartition> lost) {
    reader.forget(lost);
  }

  @Override
  public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
    LOG.info(() -> "Group " + group + " gives " + assigned + " to this server");
    for (TopicPartition partition : assigned) {
      reader.partitions().assigned(partition, reader.consumer().position(partition));
    }
  }

  /**
   * Waits at most {@link #REVOKE_GRACE} for subscribers to settle what they hold of the revoked
   * partitions, so that the new owner does not get it a second time; what is still out after it is
   * redelivered there (at least once).
   */
  private void awaitSettlements(Collection<TopicPartition> revoked) {
    reader.dropQueued(revoked);
    long deadline = System.nanoTime() + REVOKE_GRACE.toNanos();
    while (System.nanoTime() < deadline && reader.holdsAny(revoked)) {
      reader.runPending();
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    reader.runPending();
  }
}
