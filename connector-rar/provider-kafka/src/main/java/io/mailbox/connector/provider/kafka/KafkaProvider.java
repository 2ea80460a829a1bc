package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.RequestReply;
import io.mailbox.connector.spi.Backoff;
import io.mailbox.connector.spi.BoundsItsPublish;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.ParkedRecords;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.PeriodicTask;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.SharesReplyInbox;
import io.mailbox.connector.spi.TransportBase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;

/**
 * The {@code kafka:} provider: Apache Kafka as the transport (docs/providers.md, "kafka:").
 *
 * <p>Every address is one topic ({@link TopicNames}); a post is one record, acknowledged by Kafka
 * ({@code acks=all}, idempotent producer, {@link Publisher}) before it returns. An address is read
 * by the consumer group {@code <kafkaDefaultGroup>:<topic>}, shared by every server, started where
 * the provider first used the address ({@link ClusterLink#startGroup}). One {@link TopicReader} per
 * address reads it here: subscribers get each record through the kernel's broadcast settlement
 * (with what was posted while none was there); fetches take what the reader has not handed out,
 * settled at once or under a lease ({@link LeasedRecords}).
 *
 * <p>Dispositions on a log: handled lets the offset be committed (each partition's contiguous
 * settled prefix); unhandled keeps the record unsettled, holding the commit back, and hands it out
 * again later as the next round; at {@code kafkaMaxDeliveries} it is dead-lettered; discard writes
 * the kernel's dead-letter record first, then settles the source. A peek reads without taking
 * ({@link TopicPeek}); parked records are listed and purged all at once ({@link ParkedTopics}). Not
 * declared, because a log cannot do them: locate, removing one record (queued or parked).
 */
public final class KafkaProvider extends TransportBase
    implements BoundsItsPublish,
        Recovering,
        Enumerating,
        Peeking,
        ParkedRecords,
        HandsBacklogToSubscribers,
        SharesReplyInbox {
  public static final String SCHEME = "kafka";
  private static final Logger LOG = Logger.getLogger(KafkaProvider.class.getName());
  private static final Duration FETCH_WAIT = Duration.ofSeconds(5);
  private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
  private static final Duration LAST_RETRY_DELAY = Duration.ofSeconds(30);

  private final KafkaSettings settings;
  private final TopicNames names;
  private final AddressReaders readers;
  private final Map<MailAddress, List<Receiver>> receivers = new ConcurrentHashMap<>();
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final LeasedRecords leased;
  private final PeriodicTask sweeper; // hands expired leases out again, releases idle readers
  private final AtomicLong droppedHeaders = new AtomicLong();
  private volatile ClusterLink cluster;
  private volatile Publisher publisher;
  private volatile TopicPeek peeks;
  private volatile ParkedTopics parked;

  public KafkaProvider(KafkaSettings settings, Clock clock, Scheduler scheduler) {
    super(clock, scheduler);
    this.settings = settings;
    this.names = new TopicNames(settings.topicPrefix());
    this.readers = new AddressReaders(settings, names, new ReaderHost(), droppedHeaders);
    this.leased = new LeasedRecords(readers::get, this::now, this::after);
    this.sweeper =
        new PeriodicTask(
            "The kafka: lease sweep",
            scheduler,
            Duration.ofSeconds(1),
            () -> {
              leased.addresses().forEach(leased::reclaimExpired);
              readers.releaseIdle();
            });
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public void start() {
    cluster = new ClusterLink(settings, clock());
    publisher = new Publisher(settings);
    peeks = new TopicPeek(settings, cluster, names);
    parked = new ParkedTopics(names, cluster, publisher, peeks);
    sweeper.start();
  }

  @Override
  public void stop(boolean purge) {
    sweeper.stop();
    readers.closeAll();
    leased.clear(); // their records were not settled: the group reads them again
    if (purge) {
      clearBacklog();
    }
    publisher.close();
    peeks.close();
    cluster.close();
    cluster = null; // a stopped provider's status is offline
  }

  /** Whether the cluster answered a round trip recently (cached for the probe interval). */
  @Override
  public Reachability reachability() {
    return Reachability.probed(cluster != null && cluster.reachable());
  }

  @Override
  public void send(MailAddress topic, MailMessage copy) {
    publish(List.of(topic), List.of(copy), false);
  }

  @Override
  public void sendAll(List<MailMessage> copies) {
    publish(copies.stream().map(MailMessage::to).toList(), copies, true);
  }

  /** Writes each copy to its address's topic; returns once Kafka acknowledged all of them. */
  private void publish(List<MailAddress> addresses, List<MailMessage> copies, boolean together) {
    Set<MailAddress> posted = publisher.publishAll(addresses, this::topicToPost, copies, together);
    Instant now = now();
    posted.forEach(address -> lastActivity.put(address, now));
  }

  private String topicToPost(MailAddress address) {
    return RequestReply.isSharedInbox(address) ? names.topic(address) : prepare(address);
  }

  /** The topic of {@code address}, known to exist, its group started. */
  private String prepare(MailAddress address) {
    String topic = names.topic(address);
    String group = names.groupOf(address, settings.defaultGroup());
    cluster.ensureTopic(address, topic, group);
    if (readers.isQueue(address)) {
      cluster.shareGroups().start(topic, group, settings.shareDeliveryLimit());
    } else {
      cluster.startGroup(topic, group);
    }
    return topic;
  }

  /** How long a reader without subscribers and fetches may hold its partitions (tests: less). */
  void releaseIdleReadersAfter(Duration idle) {
    readers.releaseIdleAfter(idle);
  }

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver receiver) {
    readers.of(address); // first: a missing topic or absent cluster fails before anything is kept
    List<Receiver> present = receivers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    present.add(receiver);
    lastActivity.putIfAbsent(address, now());
    return () -> present.remove(receiver);
  }

  /**
   * Records not handed out yet, oldest first: settled at once, or under a lease ({@link
   * LeasedRecords}); one delivered {@code kafkaMaxDeliveries} times is dead-lettered instead.
   */
  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    if (lease != null) {
      reclaimExpired(address);
    }
    List<MailMessage> handedOut =
        leased.take(readers, address, limit, lease, FETCH_WAIT, handOut, this::giveUpQueued);
    if (!handedOut.isEmpty()) {
      lastActivity.put(address, now());
    }
    return handedOut;
  }

  /** What waits at the address's topic for its group, and is not in this server's hands. */
  @Override
  public List<MailMessage> peekQueued(MailAddress address, int limit) {
    return peeks.peek(address, readers.isQueue(address), readers.get(address), limit);
  }

  @Override
  public Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
    return leased.release(address, key, leaseId);
  }

  @Override
  public List<InFlightCopy> inFlightCopies(MailAddress address, int limit) {
    return leased.inFlight(address, limit);
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    return leased.reclaimExpired(address);
  }

  /** Runs {@code task} after {@code delay}: on the scheduler, or at once for no delay. */
  private void after(Duration delay, Runnable task) {
    if (!delay.isZero()) {
      scheduler().schedule(delay, task);
    } else {
      task.run();
    }
  }

  /** What the readers need of the provider. */
  private final class ReaderHost implements AddressReaders.Host {
    @Override
    public String prepare(MailAddress address) {
      return KafkaProvider.this.prepare(address);
    }

    @Override
    public boolean hasReceivers(MailAddress address) {
      return !receiversOf(address).isEmpty();
    }

    @Override
    public void deliver(MailAddress address, MailMessage copy) {
      KafkaProvider.this.deliver(address, copy);
    }

    @Override
    public boolean noLeases(MailAddress address) {
      return leased.census(address).inFlight() == 0;
    }

    @Override
    public void after(Duration delay, Runnable task) {
      KafkaProvider.this.after(delay, task);
    }
  }

  private List<Receiver> receiversOf(MailAddress address) { // a snapshot, per record delivered
    List<Receiver> present = new ArrayList<>(receivers.getOrDefault(address, List.of()));
    present.removeIf(receiver -> !receiver.isActive()); // a stream was a quarter of the dispatch
    return present;
  }

  /** One record to the subscribers present, or given up at the delivery cap. */
  private void deliver(MailAddress address, MailMessage copy) {
    lastActivity.put(address, now());
    int deliveredBefore = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 0);
    if (readers.overDeliveryCap(address, deliveredBefore)) {
      giveUpQueued(address, copy, "max-deliveries", deliveredBefore);
      return;
    }
    List<Receiver> present = receiversOf(address);
    if (present.isEmpty()) {
      // The last subscriber left after the reader handed it out: wait for the next reader.
      requeue(address, copy);
      return;
    }
    dispatch(address, copy, present);
  }

  @Override
  public void acknowledge(MailAddress topic, MailMessage copy) {
    AddressReader reader = readers.get(topic);
    if (reader != null) {
      reader.settle(copy.sendId().orElseThrow());
    }
  }

  @Override
  public void abandon(MailAddress address, MailMessage copy) {
    acknowledge(address, copy);
  }

  /**
   * The replacement (dead-letter record or parked copy) is acknowledged by Kafka first, then the
   * source is settled: a crash in between duplicates the record at worst. If the replacement cannot
   * be written, the source stays unsettled and is handed out again later.
   */
  @Override
  public void replaceGivenUp(MailAddress topic, MailMessage copy, Runnable storeReplacement) {
    try {
      storeReplacement.run();
    } catch (RuntimeException e) {
      requeue(topic, copy);
      throw e;
    }
    abandon(topic, copy);
  }

  /**
   * Handed out again after the retry delay of its round, by the reader that holds it. A copy no
   * reader holds (its partition moved to another server) is left to the new owner.
   */
  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    AddressReader reader = readers.get(address);
    if (reader == null) {
      return false;
    }
    // A fetcher's unhandled copy comes back at once (the fetcher paces itself, as on amqp:); a
    // subscriber's after the retry delay of its round.
    int round = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1);
    Duration delay = receiversOf(address).isEmpty() ? Duration.ZERO : retryDelay(round);
    return reader.retryLater(copy.sendId().orElseThrow(), copy, delay, this::after);
  }

  /** 1 s after the first round, doubling, at most 30 s. */
  static Duration retryDelay(int round) {
    return Backoff.after(round, FIRST_RETRY_DELAY, LAST_RETRY_DELAY);
  }

  /** The end of a dead-letter chain: written to {@code <topic>_parked} ({@link ParkedTopics}). */
  @Override
  public void park(MailAddress address, MailMessage record) {
    parked.park(address, record);
  }

  @Override
  public List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return parked.list(address, limit);
  }

  @Override
  public int removeParked(MailAddress address, String key) {
    return parked.purge(address, key);
  }

  /** A log drops its parked records all at once, never one. */
  @Override
  public boolean removesOneParkedRecord() {
    return false;
  }

  /**
   * Deletes the records of every topic this provider used (Kafka's delete-records: every group
   * loses them); returns how many went.
   */
  @Override
  public long clearBacklog() {
    ClusterLink link = cluster;
    return known().stream().map(names::topic).filter(link::known).mapToLong(link::purge).sum();
  }

  @Override
  public AddressStatus status(MailAddress address) {
    AddressReader reader = readers.get(address);
    return new KafkaStatus(cluster, names, settings.defaultGroup())
        .of(
            address,
            readers.isQueue(address),
            reader,
            broadcastsInFlight(address),
            leased.census(address),
            receiversOf(address).size(),
            droppedHeaders.get(),
            lastActivity.get(address));
  }

  /** The topics with the provider's prefix (from any server), and the addresses used here. */
  @Override
  public List<AddressStatus> enumerate() {
    Set<MailAddress> listed = new TreeSet<>(known());
    listed.addAll(cluster.ownedAddresses(names));
    return listed.stream().map(this::status).toList();
  }

  private Set<MailAddress> known() {
    Set<MailAddress> known = new TreeSet<>(lastActivity.keySet());
    known.addAll(readers.addresses());
    return known;
  }

  @Override
  public void bookkeeping(Map<String, Long> sizes) {
    sizes.put(SCHEME + ".readers", (long) readers.size());
    sizes.put(
        SCHEME + ".inFlight", readers.all().stream().mapToLong(AddressReader::inFlight).sum());
    sizes.put(SCHEME + ".lastActivity", (long) lastActivity.size());
  }
}
