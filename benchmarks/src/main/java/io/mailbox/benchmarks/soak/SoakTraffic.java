package io.mailbox.benchmarks.soak;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.Mailbox;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;

/**
 * The soak's traffic on one provider, in lanes: each lane has its own topic with one subscriber
 * (broadcast) and its own queue a consumer fetches under a lease, and runs on its own thread.
 * Messages are issued 100 at a time ({@code postAll}), batch b going to lane {@code b % lanes};
 * even-numbered messages go to the lane's topic, odd ones to its queue. After each batch the lane
 * empties its queue, takes back what its topic requeued, and drains both dead-letter addresses as
 * an operator would. More than one lane lets a database provider overlap its commits, as several
 * consumers of a server would.
 *
 * <p>Failures are chosen by the message number, {@code rule = (n / 2) % 50}, so each address sees
 * every one of them once per 50 of its messages:
 *
 * <ul>
 *   <li>topic, rule 7: the subscriber fails fatally → dead letter;
 *   <li>topic, rule 13: a retriable failure on the first attempt → retried after a backoff;
 *   <li>topic, rule 21: retriable on every attempt of the first round → retries exhausted, the copy
 *       goes back to the topic's queue (the consumer, or on {@code jdbc:} the subscriber pump,
 *       takes it again);
 *   <li>queue, rule 3: the lease is left to expire (reclaimed by the next fetch, the {@code mem:}
 *       sweeper or {@code recover()} at a checkpoint) and the copy handled in its second round;
 *   <li>queue, rule 5: nacked (unhandled) → requeued and handled in its second round;
 *   <li>queue, rule 9: discarded → dead letter;
 *   <li>rule 30 with a dedupe window ({@code jdbc:}): the same message is posted twice in its batch
 *       and the second post must collapse;
 *   <li>dead letters of messages with {@code (n / 2) % 100 == 9} are discarded again by the
 *       operator, so they are parked (the chain is one level deep), and purged at each checkpoint.
 * </ul>
 *
 * <p>Every message must end handled or dead-lettered exactly once ({@link SoakLedger}).
 */
final class SoakTraffic {
  static final int BATCH = 100;
  private static final int FETCH = 50;
  private static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);
  private static final CompletionStage<Void> DONE = CompletableFuture.completedFuture(null);

  private final SoakRig rig;
  private final Mailbox mailbox;
  private final SoakLedger ledger;
  private final boolean repostDuplicates;
  private final List<Lane> lanes = new ArrayList<>();
  private final ExecutorService threads;
  private final FetchOptions leased;
  private final LongAdder fatal = new LongAdder();
  private final LongAdder retried = new LongAdder();
  private final LongAdder takenBack = new LongAdder();
  private final LongAdder leftToExpire = new LongAdder();
  private final LongAdder nacked = new LongAdder();
  private final LongAdder discarded = new LongAdder();
  private final LongAdder reposted = new LongAdder();
  private long reclaimed;
  private long parkedPurged;

  /** One lane's addresses. */
  private record Lane(
      String topic, String queue, String topicDeadLetters, String queueDeadLetters) {
    Lane(String base) {
      this(base + "topic", base + "queue", base + "topic_dlq", base + "queue_dlq");
    }
  }

  /**
   * @param lease the lease of every fetch: long enough that a fetch of {@value #FETCH} copies ends
   *     before its first copy's lease (or it takes that copy again)
   * @param repostDuplicates whether rule 30 posts its message twice (for a dedupe window)
   */
  SoakTraffic(
      SoakRig rig, SoakLedger ledger, int laneCount, Duration lease, boolean repostDuplicates) {
    this.rig = rig;
    this.mailbox = rig.mailbox;
    this.ledger = ledger;
    this.repostDuplicates = repostDuplicates;
    this.leased = FetchOptions.leased(lease).limit(FETCH);
    for (int lane = 0; lane < laneCount; lane++) {
      Lane addresses = new Lane(rig.scheme + ":soak@bench/lane" + lane + "/");
      lanes.add(addresses);
      mailbox.subscribe(addresses.topic(), this::deliver);
    }
    threads =
        Executors.newFixedThreadPool(
            laneCount,
            task -> {
              Thread thread = new Thread(task, "soak-lane");
              thread.setDaemon(true); // a failed run must not keep the JVM alive
              return thread;
            });
  }

  int lanes() {
    return lanes.size();
  }

  static int rule(int n) {
    return (n / 2) % 50;
  }

  static MailMessage message(String address, int n) {
    return MailMessage.to(address)
        .id("soak-" + n)
        .body("{\"n\":" + n + "}")
        .header("kind", "soak")
        .build();
  }

  static int number(MailMessage message) {
    return Integer.parseInt(message.id().substring("soak-".length()));
  }

  /** The topic's subscriber: fails as the rules say, otherwise handles. */
  private CompletionStage<Void> deliver(MailMessage copy) {
    int n = number(copy);
    int round = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1);
    int attempt = SystemHeaders.intHeader(copy, SystemHeaders.ATTEMPT, 1);
    int rule = rule(n);
    if (rule == 7) {
      fatal.increment();
      throw new IllegalStateException("soak: fatal failure of " + copy.id());
    }
    if (round == 1 && (rule == 21 || (rule == 13 && attempt == 1))) {
      throw new RetriableDeliveryException("soak: not now");
    }
    if (attempt > 1) {
      retried.increment();
    }
    ledger.handled(n);
    return DONE;
  }

  /**
   * Posts messages {@code [from, to)} in batches, the lanes in parallel, each consuming its own.
   */
  void run(int from, int to) throws InterruptedException, ExecutionException {
    List<Future<?>> running = new ArrayList<>();
    for (int lane = 0; lane < lanes.size(); lane++) {
      int first = from + lane * BATCH;
      Lane addresses = lanes.get(lane);
      running.add(
          threads.submit(
              () -> {
                for (int start = first; start < to; start += BATCH * lanes.size()) {
                  post(addresses, start, Math.min(to, start + BATCH));
                  consume(addresses);
                }
              }));
    }
    for (Future<?> lane : running) {
      lane.get();
    }
  }

  private void post(Lane lane, int start, int end) {
    List<MailMessage> batch = new ArrayList<>(BATCH + 4);
    for (int n = start; n < end; n++) {
      MailMessage message = message(n % 2 == 0 ? lane.topic() : lane.queue(), n);
      batch.add(message);
      if (repostDuplicates && rule(n) == 30) {
        batch.add(message); // the same id again, inside the window: must collapse
        reposted.increment();
      }
    }
    mailbox.postAll(batch);
  }

  private void consume(Lane lane) {
    for (List<Delivery> got = mailbox.fetch(lane.queue(), leased);
        !got.isEmpty();
        got = mailbox.fetch(lane.queue(), leased)) {
      got.forEach(this::settleFetched);
    }
    // Copies the topic requeued after its subscriber's retries ran out.
    for (Delivery delivery : mailbox.fetch(lane.topic(), leased)) {
      if (delivery.ack()) {
        ledger.handled(number(delivery.message()));
        takenBack.increment();
      }
    }
    drainDeadLetters(lane.topicDeadLetters());
    drainDeadLetters(lane.queueDeadLetters());
  }

  private void settleFetched(Delivery delivery) {
    int n = number(delivery.message());
    int round = SystemHeaders.intHeader(delivery.message(), SystemHeaders.ROUND, 1);
    int rule = rule(n);
    if (rule == 3 && round == 1) {
      leftToExpire.increment(); // no disposition: the lease runs out and the copy comes back
    } else if (rule == 5 && round == 1) {
      if (delivery.settle(Disposition.UNHANDLED)) {
        nacked.increment();
      }
    } else if (rule == 9) {
      if (delivery.settle(Disposition.DISCARD)) {
        discarded.increment();
      }
    } else if (delivery.ack()) {
      ledger.handled(n);
    }
  }

  private void drainDeadLetters(String address) {
    for (Delivery record : mailbox.fetch(address, leased)) {
      int n = number(record.message());
      ledger.deadLettered(n);
      if ((n / 2) % 100 == 9) {
        record.settle(Disposition.DISCARD); // at the end of the chain: parked
      } else {
        record.ack();
      }
    }
  }

  /**
   * The checkpoint's repair work: an explicit recover and an operator's purge of parked records.
   */
  void maintain() {
    for (Lane lane : lanes) {
      reclaimed += mailbox.recover(lane.queue()).reclaimed();
      parkedPurged += mailbox.purgeParked(lane.topicDeadLetters());
      parkedPurged += mailbox.purgeParked(lane.queueDeadLetters());
    }
  }

  /**
   * Consumes until every message has an outcome (leases left to expire and requeued copies come
   * back by themselves) or a minute passed; returns the time it took.
   */
  Duration drain(IntConsumer progress) throws InterruptedException {
    long began = System.nanoTime();
    long limit = began + DRAIN_LIMIT.toNanos();
    while (ledger.missing() > 0 && System.nanoTime() < limit) {
      lanes.forEach(this::consume);
      maintain();
      progress.accept(ledger.missing());
      Thread.sleep(20);
    }
    maintain();
    threads.shutdown();
    return Duration.ofNanos(System.nanoTime() - began);
  }

  /** One line on what the failure paths did. */
  String summary() {
    return String.format(
        "subscriber: %,d fatal, %,d handled after a retry, %,d requeued after its retries and"
            + " fetched; consumer: %,d leases left to expire"
            + " (%,d reclaimed by recover()), %,d nacked, %,d discarded; %,d re-posted ids;"
            + " %,d parked records purged%s",
        fatal.sum(),
        retried.sum(),
        takenBack.sum(),
        leftToExpire.sum(),
        reclaimed,
        nacked.sum(),
        discarded.sum(),
        reposted.sum(),
        parkedPurged,
        collapsed());
  }

  /** The provider's count of collapsed duplicate posts, where it keeps one. */
  private String collapsed() {
    Object count =
        rig.provider
            .status(MailAddress.parse(lanes.get(0).queue()))
            .extensions()
            .get(rig.scheme + ".collapsedDuplicates");
    return count == null ? "" : "; collapsed by the dedupe window: " + count;
  }
}
