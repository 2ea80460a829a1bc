package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Backoff;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
import org.apache.kafka.common.errors.WakeupException;

/**
 * Reads one address's topic as a queue: a member of its share group (KIP-932), where the broker
 * locks each record it hands to this member (the acquisition lock) and takes per-record
 * acknowledgements. One thread owns the {@link KafkaShareConsumer}; settlements from other threads
 * reach it as tasks it runs between polls.
 *
 * <ul>
 *   <li><b>Dispositions</b>: handled → {@code ACCEPT}; unhandled → {@code RELEASE} after the
 *       kernel's retry delay (capped at half the lock), and the broker hands the record out again
 *       with its delivery count raised, to this member or another; a dead letter is written first,
 *       then the source is {@code ACCEPT}ed. No partition is ever blocked by one record.
 *   <li><b>Explicit acknowledgement</b>: the consumer refuses to poll again until every record of
 *       its last poll is acknowledged, so the next poll waits for the last settlement of a batch;
 *       records of a batch not handed out before {@link #STALE_SHARE} of the lock are released
 *       unseen, so that nothing is handed out after its lock ran out.
 *   <li><b>Push / fetch</b>: with subscribers the reader polls and pushes on one dispatch thread;
 *       without, it polls only while a fetch waits ({@link ShareFetches}): an idle member holds no
 *       record locked that another member could take.
 *   <li><b>Crash</b>: the broker releases the locks of a member that is gone when they run out; a
 *       failing consumer is replaced after a pause doubling up to 30 s.
 * </ul>
 */
final class ShareReader implements AddressReader {
  private static final Logger LOG = Logger.getLogger(ShareReader.class.getName());
  private static final Duration PUSH_POLL = Duration.ofMillis(5);
  private static final Duration CLOSE_BOUND = Duration.ofSeconds(10);
  private static final Duration MAX_RESTART_PAUSE = Duration.ofSeconds(30);
  private static final Duration DEFAULT_LOCK = Duration.ofSeconds(30);
  private static final double STALE_SHARE = 0.8;

  /** A record acquired by this member, read into a copy. */
  record Pending(ConsumerRecord<byte[], byte[]> record, MailMessage copy, long acquiredNanos) {}

  private final String topic;
  private final String group;
  private final Function<String, KafkaShareConsumer<byte[], byte[]>> consumers;
  private final Function<ConsumerRecord<byte[], byte[]>, MailMessage> read;
  private final BooleanSupplier hasReceivers;
  private final Consumer<MailMessage> push;
  private final Thread thread;
  private final ExecutorService dispatcher;
  private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
  private final ShareFetches fetches;
  private final Map<String, Pending> handedOut = new ConcurrentHashMap<>(); // by send id
  private final AtomicLong waiting = new AtomicLong(); // unhandled, waiting for their release
  private final AtomicLong settling = new AtomicLong(); // accepted, not confirmed by the broker

  // Owned by the poll thread:
  private final Deque<Pending> backlog = new ArrayDeque<>();
  private final Map<String, AcknowledgeType> sent = new HashMap<>(); // partition@offset → type
  private volatile KafkaShareConsumer<byte[], byte[]> consumer;
  private int unacknowledged; // records of the last poll not acknowledged yet
  private boolean acknowledgedSinceCommit;
  private volatile Duration lock = DEFAULT_LOCK;

  private volatile boolean running = true;
  private volatile long lastUsedNanos = System.nanoTime();

  ShareReader(
      String topic,
      String group,
      Function<String, KafkaShareConsumer<byte[], byte[]>> consumers,
      Function<ConsumerRecord<byte[], byte[]>, MailMessage> read,
      BooleanSupplier hasReceivers,
      Consumer<MailMessage> push) {
    this.topic = topic;
    this.group = group;
    this.consumers = consumers;
    this.read = read;
    this.hasReceivers = hasReceivers;
    this.push = push;
    this.fetches = new ShareFetches(this);
    this.dispatcher =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "mailbox-kafka-share-dispatch-" + topic);
              t.setDaemon(true);
              return t;
            });
    this.thread = new Thread(this::run, "mailbox-kafka-share-poll-" + topic);
    this.thread.setDaemon(true);
  }

  @Override
  public void start() {
    thread.start();
  }

  @Override
  public boolean holds(String key) {
    return handedOut.containsKey(key);
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
    return settling.get();
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
    Pending pending = handedOut.remove(key);
    if (pending != null) {
      settling.incrementAndGet(); // before the ack is sent: the status never shows it unread
      tasks.add(() -> acknowledge(pending, AcknowledgeType.ACCEPT));
    }
  }

  /**
   * Unhandled: {@code RELEASE}d after {@code delay}, capped at half the lock (a longer hold would
   * let the lock run out and the broker hand it out while it is held here). The broker hands the
   * record out again with its delivery count raised, which becomes the next copy's round; {@code
   * copy} itself is not kept.
   */
  @Override
  public boolean retryLater(String key, MailMessage copy, Duration delay, RetryTimer timer) {
    Pending pending = handedOut.remove(key);
    if (pending == null) {
      return false;
    }
    waiting.incrementAndGet();
    Duration hold = delay.compareTo(lock.dividedBy(2)) > 0 ? lock.dividedBy(2) : delay;
    timer.after(
        hold,
        () ->
            tasks.add(
                () -> {
                  waiting.decrementAndGet();
                  acknowledge(pending, AcknowledgeType.RELEASE);
                }));
    return true;
  }

  /** Stops: sends what is acknowledged, releases the rest (the broker does), within a bound. */
  @Override
  public void close() {
    running = false;
    KafkaShareConsumer<byte[], byte[]> owned = consumer;
    if (owned != null) {
      owned.wakeup();
    }
    try {
      thread.join(CLOSE_BOUND.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    dispatcher.shutdown();
    handedOut.clear();
  }

  private void run() {
    int failures = 0;
    while (running) {
      long started = System.nanoTime();
      try {
        consumer = consumers.apply(group);
        consumer.setAcknowledgementCommitCallback((offsets, error) -> confirmed(offsets, error));
        consumer.subscribe(List.of(topic));
        pollUntilStopped();
      } catch (WakeupException stopping) {
        // close() woke the poll up
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "The Kafka share reader of " + topic + " failed; starting again", e);
      } finally {
        closeConsumer();
      }
      if (running) {
        boolean ranAWhile = System.nanoTime() - started > Duration.ofMinutes(1).toNanos();
        failures = ranAWhile ? 1 : failures + 1;
        sleep(Backoff.after(failures, Duration.ofSeconds(1), MAX_RESTART_PAUSE));
      }
    }
  }

  private void pollUntilStopped() throws WakeupException {
    while (running) {
      runTasks();
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
        if (acknowledgedSinceCommit) {
          consumer.commitAsync();
          acknowledgedSinceCommit = false;
        }
        awaitTask(PUSH_POLL);
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
      backlog.addLast(new Pending(record, withRound(read.apply(record), record), now));
    }
    fetches.polled(records.count());
  }

  /**
   * The broker counts deliveries of a share group's record (a release or a lock running out hands
   * it out again): the copy's round is the deliveries before this one, so the kernel's attempt and
   * delivery-cap rules see them.
   */
  private static MailMessage withRound(MailMessage copy, ConsumerRecord<byte[], byte[]> record) {
    int deliveredBefore = record.deliveryCount().map(count -> count - 1).orElse(0).intValue();
    if (deliveredBefore <= SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 0)) {
      return copy;
    }
    return copy.toBuilder().header(SystemHeaders.ROUND, Integer.toString(deliveredBefore)).build();
  }

  /** Acknowledges one record of the current consumer; runs on the poll thread. */
  private void acknowledge(Pending pending, AcknowledgeType type) {
    KafkaShareConsumer<byte[], byte[]> current = consumer;
    if (current == null) {
      settledOrDropped(type);
      return; // the consumer is being replaced: the broker hands the record out again
    }
    try {
      current.acknowledge(pending.record(), type);
      unacknowledged = Math.max(0, unacknowledged - 1);
      acknowledgedSinceCommit = true;
      sent.put(where(pending.record().partition(), pending.record().offset()), type);
    } catch (RuntimeException notOfThisConsumer) {
      // A record of a consumer since replaced (its lock ends at the broker) or acknowledged twice.
      settledOrDropped(type);
      LOG.log(Level.FINE, "A record of " + topic + " could not be acknowledged", notOfThisConsumer);
    }
  }

  private void settledOrDropped(AcknowledgeType type) {
    if (type == AcknowledgeType.ACCEPT) {
      settling.decrementAndGet();
    }
  }

  /** The broker answered acknowledgements (on the poll thread, inside poll or commit). */
  private void confirmed(Map<TopicIdPartition, Set<Long>> offsets, Exception error) {
    offsets.forEach(
        (partition, set) -> {
          for (Long offset : set) {
            AcknowledgeType type = sent.remove(where(partition.partition(), offset));
            if (type == AcknowledgeType.ACCEPT) {
              settling.decrementAndGet();
            }
          }
        });
    if (error != null) {
      // Typically a lock that ran out: the broker hands those records out again (at least once).
      LOG.log(Level.FINE, "Kafka refused acknowledgements of " + topic, error);
    }
  }

  private static String where(int partition, long offset) {
    return partition + "@" + offset;
  }

  /** Releases polled records nobody took before most of their lock was gone. */
  private void releaseStale() {
    long staleAfter = (long) (lock.toNanos() * STALE_SHARE);
    while (!backlog.isEmpty()
        && System.nanoTime() - backlog.peekFirst().acquiredNanos() > staleAfter) {
      acknowledge(backlog.pollFirst(), AcknowledgeType.RELEASE);
    }
  }

  /** Hands out what the backlog holds as one task of the dispatch thread. */
  private void pushBacklog() {
    List<MailMessage> batch = new ArrayList<>();
    Pending next;
    while ((next = backlog.pollFirst()) != null) {
      handOut(next);
      batch.add(next.copy());
    }
    if (!batch.isEmpty()) {
      dispatcher.execute(() -> batch.forEach(push));
    }
  }

  private void runTasks() {
    Runnable task;
    while ((task = tasks.poll()) != null) {
      task.run();
    }
  }

  private void awaitTask(Duration bound) {
    try {
      Runnable task = tasks.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
      if (task != null) {
        task.run();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  private void closeConsumer() {
    KafkaShareConsumer<byte[], byte[]> closing = consumer;
    if (closing == null) {
      return;
    }
    try {
      runTasks();
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
    sent.clear();
    unacknowledged = 0;
    settling.set(0);
  }

  private static void sleep(Duration pause) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
    if (handedOut.remove(pending.copy().sendId().orElseThrow()) != null) {
      settling.incrementAndGet();
      acknowledge(pending, AcknowledgeType.ACCEPT);
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
