package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Reads one address's topic in this process, as a member of its consumer group: one thread owns the
 * {@link KafkaConsumer} (Kafka's consumer is single-threaded) and everyone else talks to it through
 * tasks it runs between polls.
 *
 * <p><b>Push.</b> With subscribers present, polled records are handed out in offset order on one
 * dispatch thread (subscriber code never runs on the poll thread, so a slow one cannot make the
 * consumer miss its poll interval). More than {@value #MAX_UNSETTLED} unsettled records pause the
 * partitions until subscribers catch up.
 *
 * <p><b>Fetch.</b> Without subscribers the partitions are paused (the consumer stays in the group);
 * {@link #take} resumes them for one bounded read. A fetch settles what it takes at once.
 *
 * <p><b>Commits.</b> Each partition's {@link OffsetWindow} commits the settled prefix. A revoked
 * partition's prefix is committed synchronously before it goes, and its unsettled records are
 * forgotten: their late settlements change nothing, and the new owner reads them again.
 *
 * <p><b>Unhandled.</b> {@link #retryLater} keeps the record unsettled (its offset holds the commit
 * back, so a crash or a rebalance redelivers it from Kafka) and hands it out again after the delay,
 * as the next round.
 */
final class TopicReader implements AutoCloseable {
  static final int MAX_UNSETTLED = 1_000;
  private static final Logger LOG = Logger.getLogger(TopicReader.class.getName());
  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration CLOSE_BOUND = Duration.ofSeconds(10);
  private static final Duration REVOKE_GRACE = Duration.ofSeconds(2);

  /** A record read into a copy, with where it lives. */
  record Pending(TopicPartition partition, long offset, MailMessage copy) {}

  private final String topic;
  private final Function<String, KafkaConsumer<byte[], byte[]>> consumers;
  private final String group;
  private final Function<ConsumerRecord<byte[], byte[]>, MailMessage> read;
  private final BooleanSupplier hasReceivers;
  private final Consumer<MailMessage> push;
  private final Thread thread;
  private final ExecutorService dispatcher;
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final Map<String, Pending> handedOut = new ConcurrentHashMap<>(); // by send id

  // Owned by the poll thread:
  private final PartitionCommits partitions;
  private final Deque<Pending> backlog = new ArrayDeque<>();
  private KafkaConsumer<byte[], byte[]> consumer;

  private volatile boolean running = true;
  private final AtomicLong waiting = new AtomicLong(); // unhandled, waiting for their retry
  private final AtomicLong settling = new AtomicLong(); // settled, not yet in a window

  TopicReader(
      String topic,
      String group,
      Function<String, KafkaConsumer<byte[], byte[]>> consumers,
      Function<ConsumerRecord<byte[], byte[]>, MailMessage> read,
      BooleanSupplier hasReceivers,
      Consumer<MailMessage> push) {
    this.topic = topic;
    this.group = group;
    this.consumers = consumers;
    this.read = read;
    this.hasReceivers = hasReceivers;
    this.push = push;
    this.partitions = new PartitionCommits(topic, CLOSE_BOUND);
    this.dispatcher =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "mailbox-kafka-dispatch-" + topic);
              t.setDaemon(true);
              return t;
            });
    this.thread = new Thread(this::run, "mailbox-kafka-poll-" + topic);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  String group() {
    return group;
  }

  /** Records handed out and not settled (waiting retries are not counted). */
  long inFlight() {
    return handedOut.size();
  }

  /** Records settled whose offsets are not committed yet (Kafka still counts them as lag). */
  long settledNotCommitted() {
    return partitions.settledNotCommitted() + settling.get();
  }

  /** Unhandled records waiting for their retry (queued again, not in flight). */
  long waitingForRetry() {
    return waiting.get();
  }

  // ---- called from other threads ---------------------------------------------------------------

  /**
   * Up to {@code limit} records not handed out yet, oldest first, settled at once; waits at most
   * {@code wait} for the group to be joined and the partitions read up to their end.
   */
  List<MailMessage> take(int limit, Duration wait) {
    CompletableFuture<List<MailMessage>> taken = new CompletableFuture<>();
    Instant deadline = Instant.now().plus(wait);
    tasks.add(
        () -> {
          try {
            taken.complete(takeNow(limit, deadline));
          } catch (RuntimeException e) {
            taken.completeExceptionally(e);
          }
        });
    try {
      return taken.get(wait.toMillis() + CLOSE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw (RuntimeException) e.getCause();
    } catch (TimeoutException e) {
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    }
  }

  /** A handed-out copy is done (handled, or stored elsewhere): its offset may be committed. */
  void settle(String key) {
    settling.incrementAndGet(); // before it leaves handedOut: the status never misses it
    Pending pending = handedOut.remove(key);
    if (pending == null) {
      settling.decrementAndGet();
      return;
    }
    tasks.add(
        () -> {
          OffsetWindow window = partitions.window(pending.partition());
          if (window != null) {
            window.settled(pending.offset());
          }
          partitions.count();
          settling.decrementAndGet();
        });
  }

  /**
   * An unhandled copy: kept unsettled and handed out again (as {@code copy}, its next round) once
   * {@code delay} has passed. False when it is not handed out by this reader (any more).
   */
  boolean retryLater(String key, MailMessage copy, Duration delay, RetryTimer timer) {
    Pending pending = handedOut.remove(key);
    if (pending == null) {
      return false;
    }
    waiting.incrementAndGet();
    timer.after(
        delay,
        () ->
            tasks.add(
                () -> {
                  waiting.decrementAndGet();
                  if (partitions.holds(pending.partition())) {
                    backlog.addFirst(new Pending(pending.partition(), pending.offset(), copy));
                  } // else revoked meanwhile: the new owner reads it again
                }));
    return true;
  }

  /** Schedules a task after a delay (the provider's scheduler). */
  interface RetryTimer {
    void after(Duration delay, Runnable task);
  }

  /** Stops reading: commits what is settled, leaves the group, within a bound. */
  @Override
  public void close() {
    running = false;
    KafkaConsumer<byte[], byte[]> owned = consumer;
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

  // ---- the poll thread -------------------------------------------------------------------------

  private void run() {
    try {
      consumer = consumers.apply(group);
      consumer.subscribe(List.of(topic), new Rebalance());
      while (running) {
        runTasks();
        boolean pushing = hasReceivers.getAsBoolean();
        if (pushing) {
          pushBacklog();
        }
        boolean wantMore = pushing && backlog.isEmpty() && handedOut.size() < MAX_UNSETTLED;
        if (wantMore) {
          consumer.resume(consumer.assignment());
        } else {
          consumer.pause(consumer.assignment());
        }
        pollInto(POLL);
        if (pushing) {
          pushBacklog();
        }
        partitions.commitSettled(consumer, false);
      }
    } catch (WakeupException stopping) {
      // close() woke the poll up
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "The Kafka reader of " + topic + " stopped", e);
    } finally {
      if (consumer != null) {
        try {
          runTasks();
          partitions.commitSettled(consumer, true);
        } catch (RuntimeException e) {
          LOG.log(Level.FINE, "Could not commit at close (redelivered later)", e);
        }
        consumer.close(CLOSE_BOUND);
      }
    }
  }

  private void runTasks() {
    Runnable task;
    while ((task = tasks.poll()) != null) {
      task.run();
    }
  }

  private void pollInto(Duration timeout) {
    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(timeout)) {
      TopicPartition partition = new TopicPartition(record.topic(), record.partition());
      backlog.addLast(new Pending(partition, record.offset(), read.apply(record)));
    }
  }

  private void pushBacklog() {
    while (!backlog.isEmpty() && handedOut.size() < MAX_UNSETTLED) {
      Pending next = backlog.pollFirst();
      if (handOut(next)) {
        dispatcher.execute(() -> push.accept(next.copy()));
      }
    }
  }

  /** Marks a record handed out; false for one of a partition no longer assigned. */
  private boolean handOut(Pending pending) {
    OffsetWindow window = partitions.window(pending.partition());
    if (window == null) {
      return false;
    }
    window.handedOut(pending.offset());
    handedOut.put(pending.copy().sendId().orElseThrow(), pending);
    return true;
  }

  private List<MailMessage> takeNow(int limit, Instant deadline) {
    List<MailMessage> taken = new ArrayList<>();
    try {
      while (taken.size() < limit) {
        Pending next = backlog.pollFirst();
        if (next != null) {
          OffsetWindow window = partitions.window(next.partition());
          if (window != null) { // else its partition was revoked: the new owner reads it
            window.handedOut(next.offset());
            window.settled(next.offset());
            taken.add(next.copy());
          }
          continue;
        }
        if (caughtUp() || !Instant.now().isBefore(deadline)) {
          break;
        }
        consumer.resume(consumer.assignment());
        pollInto(Duration.ofMillis(50));
      }
    } finally {
      if (!hasReceivers.getAsBoolean()) {
        consumer.pause(consumer.assignment());
      }
      partitions.count();
    }
    return taken;
  }

  /** Joined, with every assigned partition read up to its end (as the last fetch reported). */
  private boolean caughtUp() {
    Collection<TopicPartition> assigned = consumer.assignment();
    if (assigned.isEmpty()) {
      return false;
    }
    for (TopicPartition partition : assigned) {
      OptionalLong lag = consumer.currentLag(partition);
      if (lag.isEmpty() || lag.getAsLong() > 0) {
        return false;
      }
    }
    return true;
  }

  /** Commits a revoked partition's settled prefix before it goes; forgets its records. */
  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
      LOG.info(() -> "Group " + group + " takes back " + revoked + " from this server");
      awaitSettlements(revoked);
      try {
        partitions.commitBeforeRevoking(consumer, revoked);
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "Could not commit a revoked partition (redelivered)", e);
      }
      forget(revoked);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> lost) {
      forget(lost);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
      LOG.info(() -> "Group " + group + " gives " + assigned + " to this server");
      for (TopicPartition partition : assigned) {
        partitions.assigned(partition, consumer.position(partition));
      }
    }

    /**
     * Gives subscribers a short grace ({@link #REVOKE_GRACE}) to settle what they hold of the
     * revoked partitions, so that the new owner does not get it a second time; what is still out
     * after it is redelivered there (at least once).
     */
    private void awaitSettlements(Collection<TopicPartition> revoked) {
      backlog.removeIf(p -> revoked.contains(p.partition()));
      long deadline = System.nanoTime() + REVOKE_GRACE.toNanos();
      while (System.nanoTime() < deadline
          && handedOut.values().stream().anyMatch(p -> revoked.contains(p.partition()))) {
        runTasks();
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      runTasks();
    }

    private void forget(Collection<TopicPartition> gone) {
      partitions.forget(gone);
      backlog.removeIf(p -> gone.contains(p.partition()));
      handedOut.values().removeIf(p -> gone.contains(p.partition()));
    }
  }
}
