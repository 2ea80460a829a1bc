package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.TopicIdPartition;

/**
 * Reads one address's topic as a queue: a member of its share group (KIP-932), where the broker
 * locks each record it hands to this member (the acquisition lock) and takes per-record
 * acknowledgements. One thread owns the {@link KafkaShareConsumer}; settlements from other threads
 * reach it as tasks it runs between polls.
 *
 * <ul>
 *   <li><b>Dispositions</b>: handled → {@code ACCEPT}; unhandled → {@code RELEASE} after the retry
 *       delay (ended before 80% of the lock is gone), and the broker hands the record out again, to
 *       any member, its delivery count raised; discard → dead letter first, then {@code ACCEPT}.
 *       One record never holds others back.
 *   <li><b>Explicit acknowledgement</b>: Kafka refuses the next poll until every record of the last
 *       one is acknowledged; records nobody took or settled before 80% of their lock are released
 *       ({@link #releaseStale}), so the reader always polls again.
 *   <li><b>Push / fetch</b>: with subscribers it polls and pushes; without, it polls only while a
 *       fetch waits ({@link ShareFetches}), so an idle member holds nothing locked.
 * </ul>
 */
final class ShareReader implements AddressReader {
  private static final Logger LOG = Logger.getLogger(ShareReader.class.getName());
  private static final Duration PUSH_POLL = Duration.ofMillis(5);
  private static final Duration CLOSE_BOUND = Duration.ofSeconds(10);
  private static final Duration DEFAULT_LOCK = Duration.ofSeconds(30);
  private static final double STALE_SHARE = 0.8;
  private static final Duration FAILED_PUSH_PAUSE = Duration.ofSeconds(1);

  /** A record acquired by this member, read into a copy. */
  record Pending(
      ConsumerRecord<byte[], byte[]> record, MailMessage copy, long acquiredNanos, int consumer) {}

  private final String topic;
  private final String group;
  private final Function<String, KafkaShareConsumer<byte[], byte[]>> consumers;
  private final Function<ConsumerRecord<byte[], byte[]>, MailMessage> read;
  private final BooleanSupplier hasReceivers;
  private final Consumer<MailMessage> push;
  private final RetryTimer timer;
  private final PollThread poller;
  private final ShareFetches fetches;
  private final Map<String, Pending> handedOut = new ConcurrentHashMap<>(); // by send id
  private final AtomicLong waiting = new AtomicLong(); // unhandled, waiting for their release

  private final AcceptedRecords accepted = new AcceptedRecords();
  // Owned by the poll thread:
  private final Deque<Pending> backlog = new ArrayDeque<>();
  private volatile KafkaShareConsumer<byte[], byte[]> consumer;
  private int unacknowledged; // records of the last poll not acknowledged yet
  private boolean acknowledgedSinceCommit;
  private volatile Duration lock = DEFAULT_LOCK;
  private volatile int generation; // which consumer acquired a record: acks go to that one only
  private volatile long lastUsedNanos = System.nanoTime();
  private final AtMostEvery commits = new AtMostEvery(AtMostEvery.COMMIT_NANOS);
  private final AtMostEvery staleScans = new AtMostEvery(0);

  ShareReader(
      String topic,
      String group,
      Function<String, KafkaShareConsumer<byte[], byte[]>> consumers,
      Function<ConsumerRecord<byte[], byte[]>, MailMessage> read,
      BooleanSupplier hasReceivers,
      Consumer<MailMessage> push,
      RetryTimer timer) {
    this.timer = timer;
    this.topic = topic;
    this.group = group;
    this.consumers = consumers;
    this.read = read;
    this.hasReceivers = hasReceivers;
    this.push = push;
    this.fetches = new ShareFetches(this);
    this.poller =
        new PollThread(
            "share-" + topic, this::newConsumer, this::pollUntilStopped, this::closeConsumer);
  }

  @Override
  public void start() {
    poller.start();
  }

  @Override
  public boolean holds(String key) {
    return handedOut.containsKey(key);
  }

  @Override
  public boolean taken(int partition, long offset) {
    return accepted.taken(partition, offset)
        || handedOut.values().stream()
            .anyMatch(p -> p.record().partition() == partition && p.record().offset() == offset);
  }

  @Override
  public long inFlight() {
    return handedOut.size();
  }

  @Override
  public long waitingForRetry() {
    return waiting.get();
  }

  @Override
  public long settledNotCommitted() {
    return accepted.notConfirmed();
  }

  @Override
  public Duration idleFor() {
    return Duration.ofNanos(System.nanoTime() - lastUsedNanos);
  }

  @Override
  public List<MailMessage> take(int limit, Duration wait, boolean settleAtOnce) {
    lastUsedNanos = System.nanoTime();
    return fetches.take(limit, wait, settleAtOnce);
  }

  /** Handled, or stored elsewhere first: {@code ACCEPT}, at the next turn of the poll thread. */
  @Override
  public void settle(String key) {
    Pending pending = handedOut.get(key);
    if (pending == null) {
      return;
    }
    accepted(pending); // before it stops being handed out: never shown waiting in between
    if (handedOut.remove(key, pending)) {
      poller.add(() -> acknowledge(pending, AcknowledgeType.ACCEPT));
    } else {
      dropped(pending, AcknowledgeType.ACCEPT); // released meanwhile (its lock ran out)
    }
  }

  /**
   * Unhandled: {@code RELEASE}d after {@code delay}, at most until 80% of the lock is gone (later,
   * the broker could hand it out while held here); it comes back with its delivery count raised.
   */
  @Override
  public boolean retryLater(String key, MailMessage copy, Duration delay, RetryTimer timer) {
    Pending pending = handedOut.remove(key);
    if (pending == null) {
      return false;
    }
    waiting.incrementAndGet();
    // Released before most of the lock is gone, counted from when the record was acquired.
    long left = staleAfterNanos() - (System.nanoTime() - pending.acquiredNanos());
    Duration hold = Duration.ofNanos(Math.max(0, Math.min(delay.toNanos(), left)));
    timer.after(
        hold,
        () ->
            poller.add(
                () -> {
                  waiting.decrementAndGet();
                  acknowledge(pending, AcknowledgeType.RELEASE);
                }));
    return true;
  }

  /** Stops: sends what is acknowledged, releases the rest (the broker does), within a bound. */
  @Override
  public void close() {
    poller.stop(
        () -> {
          KafkaShareConsumer<byte[], byte[]> owned = consumer;
          if (owned != null) {
            owned.wakeup();
          }
        },
        CLOSE_BOUND);
    fetches.answerAllEmpty();
    handedOut.clear();
  }

  /** A new member of the share group; what a failed one held goes back when its locks end. */
  private void newConsumer() {
    consumer = consumers.apply(group);
    generation++;
    try {
      consumer.setAcknowledgementCommitCallback(this::confirmed);
      consumer.subscribe(List.of(topic));
    } catch (RuntimeException e) {
      closeConsumer();
      throw e;
    }
  }

  private void pollUntilStopped() {
    while (poller.running()) {
      poller.runTasks();
      releaseStale();
      fetches.answerWaiting();
      boolean pushing = hasReceivers.getAsBoolean();
      if (pushing) {
        pushBacklog();
      }
      if (unacknowledged == 0 && (pushing || fetches.waiting())) {
        pollInto(pushing ? PUSH_POLL : ShareFetches.POLL_STEP);
        if (pushing) {
          pushBacklog();
        }
      } else {
        long now = System.nanoTime();
        if ((acknowledgedSinceCommit || accepted.notConfirmed() > 0) && commits.due(now)) {
          // Sends new acknowledgements, runs the callbacks of those answered; at most every 20 ms
          consumer.commitAsync();
          acknowledgedSinceCommit = false;
        }
        poller.awaitTask(PUSH_POLL);
      }
    }
  }

  private void pollInto(Duration timeout) {
    var records = consumer.poll(timeout);
    acknowledgedSinceCommit = false; // the poll carried them
    consumer.acquisitionLockTimeoutMs().ifPresent(ms -> lock = Duration.ofMillis(ms));
    long now = System.nanoTime();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      unacknowledged++;
      backlog.addLast(
          new Pending(
              record, KafkaRecords.withDeliveryCount(read.apply(record), record), now, generation));
    }
    fetches.polled(records.count());
  }

  /** Acknowledges one record of the current consumer; runs on the poll thread. */
  private void acknowledge(Pending pending, AcknowledgeType type) {
    KafkaShareConsumer<byte[], byte[]> current = consumer;
    if (current == null || pending.consumer() != generation) {
      dropped(pending, type);
      return; // acquired by a consumer since replaced: the broker hands the record out again
    }
    try {
      current.acknowledge(pending.record(), type);
      unacknowledged = Math.max(0, unacknowledged - 1);
      acknowledgedSinceCommit = true; // an ACCEPT stays in `accepted` until the broker confirms it
    } catch (RuntimeException notOfThisConsumer) {
      // A record of a consumer since replaced (its lock ends at the broker) or acknowledged twice.
      dropped(pending, type);
      LOG.log(Level.FINE, "A record of " + topic + " could not be acknowledged", notOfThisConsumer);
    }
  }

  /** An acknowledgement that will not reach the broker: the record is handed out again. */
  private void dropped(Pending pending, AcknowledgeType type) {
    if (type == AcknowledgeType.ACCEPT) {
      accepted.undone(pending.record().partition(), pending.record().offset());
    }
  }

  private void accepted(Pending pending) {
    accepted.accepted(pending.record().partition(), pending.record().offset());
  }

  /** The broker answered acknowledgements (on the poll thread, inside poll or commit). */
  private void confirmed(Map<TopicIdPartition, Set<Long>> offsets, Exception error) {
    accepted.answered(offsets, error);
    if (error != null) {
      // Typically a lock that ran out: the broker hands those records out again (at least once).
      LOG.log(Level.FINE, "Kafka refused acknowledgements of " + topic, error);
    }
  }

  private long staleAfterNanos() {
    return (long) (lock.toNanos() * STALE_SHARE);
  }

  /**
   * Releases records whose lock is mostly gone: polled ones nobody took, and handed-out ones nobody
   * settled (a lease longer than the lock, a caller that vanished). The broker would hand them to
   * another member anyway; a late settlement of one changes nothing, and the reader polls again.
   */
  private void releaseStale() {
    long now = System.nanoTime();
    long staleAfter = staleAfterNanos();
    while (!backlog.isEmpty() && now - backlog.peekFirst().acquiredNanos() > staleAfter) {
      acknowledge(backlog.pollFirst(), AcknowledgeType.RELEASE);
    }
    // A twentieth of a lock apart (at every turn, one per settlement, it was a pass per record),
    // releasing a scan early so that none is held past 80% of its lock.
    long scanEvery = lock.toNanos() / 20;
    if (!staleScans.due(now, scanEvery)) {
      return;
    }
    handedOut.forEach(
        (key, pending) -> {
          if (now - pending.acquiredNanos() > staleAfter - scanEvery
              && handedOut.remove(key, pending)) {
            LOG.fine(() -> "A record of " + topic + " held past most of its lock was released");
            acknowledge(pending, AcknowledgeType.RELEASE);
          }
        });
  }

  /** Hands out what the backlog holds as one task of the dispatch thread. */
  private void pushBacklog() {
    List<MailMessage> batch = new ArrayList<>();
    Pending next;
    while ((next = backlog.pollFirst()) != null) {
      handOut(next);
      batch.add(next.copy());
    }
    poller.dispatch(batch, this::pushOne);
  }

  /** One record to the subscribers; a failing hand-over releases it (the rest go on). */
  private void pushOne(MailMessage copy) {
    try {
      push.accept(copy);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Could not hand a record of " + topic + " over; releasing it", e);
      retryLater(copy.sendId().orElseThrow(), copy, FAILED_PUSH_PAUSE, timer);
    }
  }

  private void closeConsumer() {
    KafkaShareConsumer<byte[], byte[]> closing = consumer;
    if (closing == null) {
      return;
    }
    try {
      poller.runTasks();
      closing.commitSync(CLOSE_BOUND);
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "Could not send the last acknowledgements (handed out again)", e);
    }
    try {
      closing.close(CLOSE_BOUND); // releases what is still acquired
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "The share consumer of " + topic + " did not close cleanly", e);
    }
    consumer = null;
    backlog.clear();
    handedOut.clear(); // their late settlements change nothing: the broker hands them out again
    accepted.clear(); // never confirmed: the broker hands them out again, so they count as unread
    unacknowledged = 0;
  }

  // ---- for fetches (on the poll thread) --------------------------------------------------------

  /** The next acquired record not handed out yet, or null. */
  Pending nextQueued() {
    return backlog.pollFirst();
  }

  /** Marks a record handed out (it now waits for its settlement). */
  void handOut(Pending pending) {
    handedOut.put(pending.copy().sendId().orElseThrow(), pending);
  }

  /** Puts a record taken for a fetch back at the head of the backlog, still acquired. */
  void putBack(Pending pending) {
    handedOut.remove(pending.copy().sendId().orElseThrow());
    backlog.addFirst(pending);
  }

  /** Accepts a record an auto-ack fetch took, once its caller has it. */
  void settleTaken(Pending pending) {
    accepted(pending); // first, as in settle
    if (handedOut.remove(pending.copy().sendId().orElseThrow()) != null) {
      acknowledge(pending, AcknowledgeType.ACCEPT);
    } else {
      dropped(pending, AcknowledgeType.ACCEPT);
    }
  }

  /** Whether the last poll's records are all acknowledged, so the consumer may poll again. */
  boolean mayPoll() {
    return unacknowledged == 0;
  }

  /** Polls once for a fetch (only when {@link #mayPoll}). */
  void pollFor(Duration timeout) {
    pollInto(timeout);
  }
}
