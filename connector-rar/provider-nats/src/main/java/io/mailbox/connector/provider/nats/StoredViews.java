package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.ConsumerInfo;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StreamInfoOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Read-only looks at what the stream stores, and the parked records. JetStream can read a stored
 * message by its sequence without delivering it ({@code getNextMessage}): no consumer sees the
 * read, no delivery count moves, nothing is reordered. So peek lists the messages stored after the
 * default group's delivered sequence (the ones no server was handed yet; those delivered and
 * nak'ed, or held by another server, are counted in the status but not listed), and the parked
 * records are the messages of {@code <subject>.parked}, listed, counted, deleted one by one (by
 * sequence) or purged.
 *
 * <p>An operator's removal deletes, by sequence, what peek lists: messages stored after the
 * delivered sequence, skipping any that another consumer of the subject may hold (handed out there,
 * not yet under its ack floor). The consumers are asked again before each page of {@value #PAGE}: a
 * consumer may still pull a message between that look and the delete. It is then handled anyway
 * (its ack of a deleted message is harmless), but if its handler fails it cannot come back: the
 * operator removed it. One removal reads through at most {@value #MAX_SCANNED} messages.
 */
final class StoredViews {
  /** How many messages one removal reads through, at most (queued or parked). */
  static final int MAX_SCANNED = 10_000;

  /**
   * How many messages one removal reads between two looks at the consumers (the window in which a
   * consumer can take a message the removal then deletes).
   */
  private static final int PAGE = 100;

  /** JetStream's "no message found" (a read past the last message of the subject). */
  private static final int NO_MESSAGE_FOUND = 10037;

  private final NatsLink link;
  private final SubjectNames names;
  private final String stream;
  private final String group;

  StoredViews(NatsLink link, SubjectNames names, String stream, String group) {
    this.link = link;
    this.names = names;
    this.stream = stream;
    this.group = group;
  }

  /** Up to {@code limit} queued copies not delivered yet, oldest first. */
  List<MailMessage> peek(MailAddress address, int limit) {
    Optional<ConsumerInfo> consumer = link.consumers().info(names.consumer(group, address));
    if (consumer.isEmpty()) {
      return List.of();
    }
    long after = consumer.get().getDelivered().getStreamSequence();
    List<MailMessage> copies = new ArrayList<>();
    for (MessageInfo stored : read(names.subject(address), after + 1, limit)) {
      copies.add(NatsMessages.readSafely(address, stored).copy());
    }
    return copies;
  }

  /**
   * Removes the queued message with copy key {@code sendId} (every queued one when null) among the
   * first {@value #MAX_SCANNED} not delivered yet; returns how many.
   */
  int removeQueued(MailAddress address, String sendId) {
    String subject = names.subject(address);
    String ours = names.consumer(group, address);
    long next = 1;
    int removed = 0;
    for (int scanned = 0; scanned < MAX_SCANNED; ) {
      // Asked again for every page: consumers move on while the page is read and deleted.
      List<ConsumerInfo> readers = link.consumers().reading(subject);
      Optional<ConsumerInfo> own = readers.stream().filter(c -> ours.equals(c.getName())).findAny();
      if (own.isEmpty()) {
        return removed; // never read: nothing was queued for the group
      }
      next = Math.max(next, own.get().getDelivered().getStreamSequence() + 1);
      List<ConsumerInfo> others = readers.stream().filter(c -> c != own.get()).toList();
      List<MessageInfo> page = read(subject, next, Math.min(PAGE, MAX_SCANNED - scanned));
      for (MessageInfo stored : page) {
        MailMessage copy = NatsMessages.readSafely(address, stored).copy();
        boolean wanted = sendId == null || copy.sendId().filter(sendId::equals).isPresent();
        if (wanted && settledOrUnreadByAll(others, stored.getSeq())) {
          removed += delete(stored.getSeq()) ? 1 : 0;
        }
      }
      if (page.isEmpty()) {
        break;
      }
      scanned += page.size();
      next = page.get(page.size() - 1).getSeq() + 1;
    }
    return removed;
  }

  /**
   * Whether every other group's consumer either acknowledged {@code sequence} (at or below its ack
   * floor) or was never handed it (past its delivered sequence): deleting it then takes nothing
   * from a handler of another group. Between the two it may be in flight there, and is left.
   */
  private static boolean settledOrUnreadByAll(List<ConsumerInfo> others, long sequence) {
    return others.stream()
        .allMatch(
            other ->
                sequence <= other.getAckFloor().getStreamSequence()
                    || sequence > other.getDelivered().getStreamSequence());
  }

  /** Parked records of {@code address}, oldest first. */
  List<MailMessage> parked(MailAddress address, int limit) {
    List<MailMessage> records = new ArrayList<>();
    for (MessageInfo stored : read(names.parkedSubject(address), 1, limit)) {
      records.add(NatsMessages.readSafely(address, stored).copy());
    }
    return records;
  }

  /** Removes the parked record with send id {@code sendId}, or all when null; returns how many. */
  int removeParked(MailAddress address, String sendId) {
    String subject = names.parkedSubject(address);
    if (sendId == null) {
      return (int) link.purge(subject);
    }
    int removed = 0;
    for (MessageInfo stored : read(subject, 1, MAX_SCANNED)) {
      if (stored.getHeaders() != null
          && sendId.equals(stored.getHeaders().getLast(SystemHeaders.SEND_ID))) {
        removed += delete(stored.getSeq()) ? 1 : 0;
      }
    }
    return removed;
  }

  /** How many parked records the address has (the stream's count of the parked subject). */
  long parkedCount(MailAddress address) {
    String subject = names.parkedSubject(address);
    try {
      Long count =
          link.management()
              .getStreamInfo(stream, StreamInfoOptions.filterSubjects(subject))
              .getStreamState()
              .getSubjectMap()
              .get(subject);
      return count == null ? 0 : count;
    } catch (JetStreamApiException | IOException e) {
      throw link.unavailable("did not count the parked records of " + subject, e);
    }
  }

  /** Up to {@code limit} messages of {@code subject} from sequence {@code from} on, in order. */
  private List<MessageInfo> read(String subject, long from, int limit) {
    link.ensureStream();
    JetStreamManagement management = link.management();
    List<MessageInfo> found = new ArrayList<>();
    long next = from;
    try {
      while (found.size() < limit) {
        MessageInfo stored = management.getNextMessage(stream, next, subject);
        found.add(stored);
        next = stored.getSeq() + 1;
      }
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != NO_MESSAGE_FOUND) {
        throw link.unavailable("refused to read " + subject, e);
      }
    } catch (IOException e) {
      throw link.unavailable("did not read " + subject, e);
    }
    return found;
  }

  private boolean delete(long sequence) {
    try {
      return link.management().deleteMessage(stream, sequence);
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == NO_MESSAGE_FOUND) {
        return false; // deleted a moment ago by another server
      }
      throw link.unavailable("refused to delete message " + sequence + " of " + stream, e);
    } catch (IOException e) {
      throw link.unavailable("did not delete message " + sequence + " of " + stream, e);
    }
  }
}
