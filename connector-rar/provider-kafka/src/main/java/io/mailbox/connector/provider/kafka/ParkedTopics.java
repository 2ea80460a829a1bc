package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import java.util.List;
import java.util.logging.Logger;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The end of a dead-letter chain on Kafka: each address's parked records are kept in its own topic
 * {@code <topic>_parked}, which no group reads. They are listed by reading that topic from its
 * first record ({@link TopicPeek#stored}), counted from its offsets (the status), and purged all at
 * once with Kafka's delete-records. One record cannot be taken out of a log: a purge by key is
 * refused ({@code MBX-1007}), never faked by hiding the record.
 */
final class ParkedTopics {
  private static final Logger LOG = Logger.getLogger(ParkedTopics.class.getName());

  private final TopicNames names;
  private final ClusterLink cluster;
  private final Publisher publisher;
  private final TopicPeek peeks;

  ParkedTopics(TopicNames names, ClusterLink cluster, Publisher publisher, TopicPeek peeks) {
    this.names = names;
    this.cluster = cluster;
    this.publisher = publisher;
    this.peeks = peeks;
  }

  /** Writes {@code record} to the address's parked topic; returns once Kafka acknowledged it. */
  void park(MailAddress address, MailMessage record) {
    String parked = names.parkedTopic(address);
    cluster.ensureTopic(address, parked, "(none: parked records are not read)");
    publisher.publishAll(List.of(address), any -> parked, List.of(record), false);
    LOG.warning(() -> "Parked " + record + " in Kafka topic " + parked);
  }

  /** Up to {@code limit} parked records of {@code address}, oldest first. */
  List<MailMessage> list(MailAddress address, int limit) {
    return peeks.stored(address, names.parkedTopic(address), limit);
  }

  /** Deletes every parked record of {@code address}; returns how many went. */
  int purge(MailAddress address, String key) {
    if (key != null) {
      throw new MailboxException(
          ErrorCode.UNSUPPORTED_CAPABILITY,
          "One parked record cannot be removed from the Kafka topic "
              + names.parkedTopic(address)
              + ": a log can only drop them all (purge without a key).");
    }
    try {
      return (int) cluster.purge(names.parkedTopic(address));
    } catch (MailboxException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return 0; // nothing was ever parked there
      }
      throw e; // the cluster is away: the purge fails, it never reads as "0 purged"
    }
  }
}
