package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads one address's topic in this process, as a member of its consumer group. One thread owns the
 * {@link KafkaConsumer} (it is single-threaded); others reach it through tasks it runs between
 * polls.
 *
 * <ul>
 *   <li><b>Push</b>: with subscribers, records are handed out in offset order on one dispatch
 *       thread (a slow subscriber never makes the consumer miss its poll interval); more than
 *       {@value #MAX_UNSETTLED} unsettled records pause the partitions.
 *   <li><b>Fetch</b>: without subscribers the partitions are paused (the member stays in the
 *       group); a fetch resumes them for one bounded read ({@link Fetches}).
 *   <li><b>Commits</b>: each partition's settled prefix ({@link PartitionCommits}), at most every
 *       20 ms while records flow, synchronously at a revocation and at the close; a revoked
 *       partition's records are forgotten (late settlements change nothing, the new owner reads
 *       them again).
 *   <li><b>Unhandled</b>: {@link #retryLater} keeps the record unsettled (holding the commit back)
 *       and hands it out again after the delay, as the next round.
 *   <li><b>Failures</b>: a consumer that fails (not the stop) is replaced after a pause doubling up
 *       to 30 s; what it held is read again from the committed offsets.
 * </ul>
 */
final class TopicReader implements AddressReader {
  // Pausing the partitions costs the fetch running ahead: at 1,000 each, 40 % of the poll loop's
  // turns paused in the benchmark; at these, 6 %.
  static final int MAX_UNSETTLED = 4_000;
  private static final int MAX_BACKLOG = 2_000;
  private static final Logger LOG = Logger.getLogger(TopicReader.class.getName());
  // Short: retries and fetches wait for the poll to return. 100 ms cost the benchmark's
  // subscriber 0.10 of a raw consumer and a channel up to 100 ms per leased record.
  private static final Duration POLL = Duration.ofMillis(5);
  private static final Duration CLOSE_BOUND = Duration.ofSeconds(10);
  private static final Duration FAILED_PUSH_PAUSE = Duration.ofSeconds(1);

  /** A record read into a copy, with where it lives. */
  record Pending(TopicPartition partition, long offset, MailMessage copy) {}

  private final String topic;
  private final Function<String, KafkaConsumer<byte[], byte[]>> consumers;
  private final String group;
  private final Function<ConsumerRecord<byte[], byte[]>, MailMessage> read;
  private final BooleanSupplier hasReceivers;
  private final Consumer<MailMessage> push;
  private final RetryTimer timer;
  // Its tasks are settlements and retries; fetches wait apart: a rebalance's grace runs only the
  // former (a fetch polls, which must not happen inside a rebalance callback).
  private final PollThread poller;
  private final Fetches fetches;
  private final Map<String, Pending> handedOut = new ConcurrentHashMap<>(); // by send id
  private final Settlements settlements = new Settlements();

  // Owned by the poll thread:
  private final PartitionCommits partitions;
  private final Deque<Pending> backlog = new ArrayDeque<>();
  private volatile KafkaConsumer<byte[], byte[]> consumer;

  private volatile long lastUsedNanos = System.nanoTime();
  private final AtomicLong waiting = new AtomicLong(); // unhandled, waiting for their retry

  TopicReader(
      String topic,
      String group,
      Function<String, KafkaConsumer<byte[], byte[]>> consumers,
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
    this.partitions = new PartitionCommits(topic, CLOSE_BOUND);
    this.fetches = new Fetches(this, topic);
    this.poller =
        new PollThread(topic, this::newConsumer, this::pollUntilStopped, this::closeConsumer);
  }

  @Override
  public void start() {
    poller.start();
  }

  /** Whether the record of copy {@code key} is handed out by this reader and not settled. */
  @Override
  public boolean holds(String key) {
    return handedOut.containsKey(key);
  }

  /**
   * Records this member has in hand or settled and not committed: those before the highest handed
   * out of each partition it holds, except those waiting again (put back, or for their retry).
   */
  @Override
  public boolean taken(int partition, long offset) {
    return partitions.handedOut(partition, offset);
  }

  /** Records handed out and not settled (waiting retries are not counted). */
  @Override
  public long inFlight() {
    return handedOut.size();
  }

  /** Records settled whose offsets are not committed yet (Kafka still counts them as lag). */
  @Override
  public long settledNotCommitted() {
    // The queue first: a record that left it since was counted in its window before it left.
    long queued = settlements.count();
    return partitions.settledNotCommitted() + queued;
  }

  /** Unhandled records waiting for their retry (queued again, not in flight). */
  @Override
  public long waitingForRetry() {
    return waiting.get();
  }

  /**
   * Up to {@code limit} records not handed out yet, oldest first; waits at most {@code wait} for
   * the group to be joined and the partitions read up to their end ({@link Fetches#take}).
   */
  @Override
  public List<MailMessage> take(int limit, Duration wait, boolean settleAtOnce) {
    lastUsedNanos = System.nanoTime();
    return fetches.take(limit, wait, settleAtOnce);
  }

  /** How long since the reader was made or last fetched from. */
  @Override
  public Duration idleFor() {
    return Duration.ofNanos(System.nanoTime() - lastUsedNanos);
  }

  /** A handed-out copy is done (handled, or stored elsewhere): its offset may be committed. */
  @Override
  public void settle(String key) {
    settlements.counting(); // before it leaves handedOut: the status never misses it
    Pending pending = handedOut.remove(key);
    if (pending == null) {
      settlements.cancel();
    } else if (settlements.add(pending)) {
      poller.add(this::applySettlements);
    }
  }

  /** Moves the settled records into their partitions' windows (on the poll thread). */
  private void applySettlements() {
    settlements.applyAll(
        pending -> partitions.settled(pending.partition(), pending.offset()), partitions::count);
  }

  /**
   * An unhandled copy: kept unsettled and handed out again (as {@code copy}, its next round) once
   * {@code delay} has passed. False when it is not handed out by this reader (any more).
   */
  @Override
  public boolean retryLater(String key, MailMessage copy, Duration delay, RetryTimer timer) {
    Pending pending = handedOut.remove(key);
    if (pending == null) {
      return false;
    }
    partitions.queuedAgain(pending.partition(), pending.offset());
    waiting.incrementAndGet();
    timer.after(
        delay,
        () ->
            poller.add(
                () -> {
                  waiting.decrementAndGet();
                  if (partitions.holds(pending.partition())) {
                    backlog.addFirst(new Pending(pending.partition(), pending.offset(), copy));
                  } // else revoked meanwhile: the new owner reads it again
                }));
    return true;
  }

  /** Stops reading: commits what is settled, leaves the group, within a bound. */
  @Override
  public void close() {
    poller.stop(
        () -> {
          KafkaConsumer<byte[], byte[]> owned = consumer;
          if (owned != null) {
            owned.wakeup();
          }
        },
        CLOSE_BOUND);
    handedOut.clear();
  }

  /** A new member of the group; what a failed one held is read again from the committed offsets. */
  private void newConsumer() {
    consumer = consumers.apply(group);
    try {
      consumer.subscribe(List.of(topic), new RebalanceListener(this, group));
    } catch (RuntimeException e) {
      closeConsumer();
      throw e;
    }
  }

  private void pollUntilStopped() {
    while (poller.running()) {
      poller.runTasks();
      fetches.runQueued();
      boolean pushing = hasReceivers.getAsBoolean();
      if (pushing) {
        pushBacklog();
      }
      // Keep fetching while records are pushed (the next fetch is in flight while handlers run);
      // stop at a bounded backlog or too many unsettled records.
      boolean wantMore = pushing && backlog.size() < MAX_BACKLOG && unsettled() < MAX_UNSETTLED;
      if (wantMore) {
        consumer.resume(consumer.assignment());
        pollInto(POLL);
      } else {
        // Paused: a poll would block its whole timeout while settlements wait. Poll without
        // waiting (it runs commit callbacks and the group's protocol), then wait for a task.
        consumer.pause(consumer.assignment());
        pollInto(Duration.ZERO);
        poller.awaitTask(POLL);
      }
      if (pushing) {
        pushBacklog();
      }
      partitions.commitSettledNowAndThen(consumer);
    }
  }

  /** Commits what is settled (bounded) and leaves the group; forgets every partition. */
  private void closeConsumer() {
    if (consumer == null) {
      return;
    }
    try {
      poller.runTasks();
      partitions.commitSettled(consumer, true);
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "Could not commit at close (redelivered later)", e);
    }
    try {
      consumer.close(CLOSE_BOUND);
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "The consumer of " + topic + " did not close cleanly", e);
    }
    forget(partitions.held());
    consumer = null;
  }

  private void pollInto(Duration timeout) {
    ConsumerRecords<byte[], byte[]> records = consumer.poll(timeout);
    for (TopicPartition partition : records.partitions()) {
      for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
        backlog.addLast(new Pending(partition, record.offset(), read.apply(record)));
      }
    }
  }

  /** Handed out and not settled, or waiting for a retry: what holds commits back. */
  private long unsettled() {
    return handedOut.size() + waiting.get();
  }

  /** Hands out what the backlog holds, in order, as one task of the dispatch thread. */
  private void pushBacklog() {
    List<MailMessage> batch = new ArrayList<>();
    while (!backlog.isEmpty() && unsettled() < MAX_UNSETTLED) {
      Pending next = backlog.pollFirst();
      if (handOut(next)) {
        batch.add(next.copy());
      }
    }
    poller.dispatch(batch, this::pushOne);
  }

  /** One record to the subscribers; a failing hand-over hands it out again (the rest go on). */
  private void pushOne(MailMessage copy) {
    try {
      push.accept(copy);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Could not hand a record of " + topic + " over; retrying it", e);
      retryLater(copy.sendId().orElseThrow(), copy, FAILED_PUSH_PAUSE, timer);
    }
  }

  /** Marks a record handed out; false for one of a partition no longer assigned. */
  boolean handOut(Pending pending) {
    if (!partitions.handOut(pending.partition(), pending.offset())) {
      return false;
    }
    handedOut.put(pending.copy().sendId().orElseThrow(), pending);
    return true;
  }

  // ---- for fetches (on the poll thread) --------------------------------------------------------

  /** The next polled record not handed out yet, or null. */
  Pending nextQueued() {
    return backlog.pollFirst();
  }

  /** Puts a record taken for a fetch back at the head of the backlog, still unsettled. */
  void putBack(Pending pending) {
    handedOut.remove(pending.copy().sendId().orElseThrow());
    partitions.queuedAgain(pending.partition(), pending.offset());
    backlog.addFirst(pending);
  }

  /** Settles a record an auto-ack fetch took. */
  void settleTaken(Pending pending) {
    // Counted as settled before it stops counting as handed out: the caller, who has it already,
    // may read the status at any moment, and must never see it as unread again.
    partitions.settled(pending.partition(), pending.offset());
    partitions.count();
    handedOut.remove(pending.copy().sendId().orElseThrow());
  }

  /** Reads what the (resumed) partitions have, for at most {@code timeout}. */
  void pollFor(Duration timeout) {
    consumer.resume(consumer.assignment());
    pollInto(timeout);
  }

  /** After a fetch: paused again unless subscribers are there (they keep reading). */
  void fetchDone() {
    if (poller.running() && !hasReceivers.getAsBoolean()) {
      consumer.pause(consumer.assignment());
    }
    partitions.count();
  }

  // ---- for the rebalance listener (on the poll thread) ----------------------------------------

  PartitionCommits partitions() {
    return partitions;
  }

  KafkaConsumer<byte[], byte[]> consumer() {
    return consumer;
  }

  /** Drops polled records of {@code gone} that were not handed out: the new owner reads them. */
  void dropQueued(Collection<TopicPartition> gone) {
    backlog.removeIf(p -> gone.contains(p.partition()));
  }

  /** Whether a record of {@code gone} is handed out and not settled. */
  boolean holdsAny(Collection<TopicPartition> gone) {
    return handedOut.values().stream().anyMatch(p -> gone.contains(p.partition()));
  }

  /** Runs the settlements and retries queued for the poll thread. */
  void runPending() {
    poller.runTasks();
  }

  /** Forgets everything of {@code gone}: late settlements of its records change nothing. */
  void forget(Collection<TopicPartition> gone) {
    partitions.forget(gone);
    dropQueued(gone);
    handedOut.values().removeIf(p -> gone.contains(p.partition()));
  }
}
