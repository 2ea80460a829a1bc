package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Backoff;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.TransportBase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The {@code kafka:} provider: Apache Kafka as the transport.
 *
 * <p><b>Mapping.</b> Every address is one topic ({@link TopicNames}); a post is one record,
 * acknowledged by Kafka ({@code acks=all}, idempotent producer) before the post returns. An address
 * is read by the consumer group {@code <kafkaDefaultGroup>:<topic>}: every server running the
 * product shares its partitions, as members of one group do. A group starts where the provider
 * first used the address (a post, a subscription or a fetch): what was posted before is never
 * replayed, what was posted after is kept for it, and a restart resumes from the committed offsets.
 *
 * <p><b>Delivery.</b> Subscribers of an address in this process share one {@link TopicReader}; each
 * record goes to every local subscriber through the kernel's broadcast settlement, and subscribers
 * are also handed what was posted while none was there ({@code subscribers-take-backlog}). A fetch
 * takes records the reader has not handed out and settles them at once.
 *
 * <p><b>Dispositions on a log.</b> Handled: the record's offset may be committed — each partition
 * commits its contiguous settled prefix, never past an unsettled record. Unhandled: the record
 * stays unsettled (holding the commit back, so a crash or rebalance redelivers it) and is handed
 * out again after {@link #retryDelay} of its round; at {@code kafkaMaxDeliveries} it is
 * dead-lettered. Discard: the kernel's dead-letter record is written to the dead-letter address's
 * topic first, then the source is settled.
 *
 * <p><b>Not declared</b>, because a log cannot do them: leases and their recovery (a classic group
 * has one offset per partition, not one lock per record), peek, locate, removing one record, parked
 * records listed through the API (they go to {@code <topic>_parked}).
 */
public final class KafkaProvider extends TransportBase
    implements Enumerating, HandsBacklogToSubscribers {
  public static final String SCHEME = "kafka";
  private static final Logger LOG = Logger.getLogger(KafkaProvider.class.getName());
  private static final Duration FETCH_WAIT = Duration.ofSeconds(5);
  private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
  private static final Duration LAST_RETRY_DELAY = Duration.ofSeconds(30);
  private static final String PARKED_SUFFIX = "_parked"; // '_p' never comes out of the escaping

  private final KafkaSettings settings;
  private final TopicNames names;
  private final Map<MailAddress, TopicReader> readers = new ConcurrentHashMap<>();
  private final Map<MailAddress, List<Receiver>> receivers = new ConcurrentHashMap<>();
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final AtomicLong droppedHeaders = new AtomicLong();
  private volatile ClusterLink cluster;
  private volatile Publisher publisher;

  public KafkaProvider(KafkaSettings settings, Clock clock, Scheduler scheduler) {
    super(clock, scheduler);
    this.settings = settings;
    this.names = new TopicNames(settings.topicPrefix());
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  public KafkaSettings settings() {
    return settings;
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  @Override
  public void start() {
    cluster = new ClusterLink(settings, clock());
    publisher = new Publisher(KafkaClients.producer(settings), settings.publishTimeout());
  }

  @Override
  public void stop(boolean purge) {
    readers.values().forEach(TopicReader::close);
    readers.clear();
    if (purge) {
      clearBacklog();
    }
    publisher.close();
    cluster.close();
    cluster = null; // a stopped provider's status is offline
  }

  /** Whether the cluster answered a round trip recently (cached for the probe interval). */
  @Override
  public boolean reachable() {
    return cluster != null && cluster.reachable();
  }

  // ---- posting ---------------------------------------------------------------------------------

  @Override
  public void send(MailAddress topic, MailMessage copy) {
    publish(List.of(topic), List.of(copy));
  }

  @Override
  public void sendAll(List<MailMessage> copies) {
    publish(copies.stream().map(MailMessage::to).toList(), copies);
  }

  /** Writes each copy to its address's topic; returns once Kafka acknowledged all of them. */
  private void publish(List<MailAddress> addresses, List<MailMessage> copies) {
    List<String> topics = new ArrayList<>(copies.size());
    for (MailAddress address : addresses) {
      topics.add(prepare(address));
    }
    publisher.publishAll(addresses, topics, copies);
    Instant now = now();
    addresses.forEach(address -> lastActivity.put(address, now));
  }

  /** The topic of {@code address}, known to exist, its group started. */
  private String prepare(MailAddress address) {
    String topic = names.topic(address);
    String group = group(topic);
    cluster.ensureTopic(address, topic, group);
    cluster.startGroup(topic, group);
    return topic;
  }

  private String group(String topic) {
    return TopicNames.derivedGroup(settings.defaultGroup(), topic);
  }

  // ---- reading ---------------------------------------------------------------------------------

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver receiver) {
    List<Receiver> present = receivers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    present.add(receiver);
    reader(address);
    lastActivity.putIfAbsent(address, now());
    return () -> present.remove(receiver);
  }

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    List<MailMessage> taken = reader(address).take(limit, FETCH_WAIT);
    if (!taken.isEmpty()) {
      lastActivity.put(address, now());
    }
    return taken.stream().map(handOut).toList();
  }

  private TopicReader reader(MailAddress address) {
    TopicReader existing = readers.get(address);
    if (existing != null) {
      return existing;
    }
    String topic = prepare(address);
    return readers.computeIfAbsent(
        address,
        a -> {
          TopicReader reader =
              new TopicReader(
                  topic,
                  group(topic),
                  group -> KafkaClients.consumer(settings, group),
                  record -> read(address, record),
                  () -> !receiversOf(address).isEmpty(),
                  copy -> deliver(address, copy));
          reader.start();
          return reader;
        });
  }

  private MailMessage read(MailAddress address, ConsumerRecord<byte[], byte[]> record) {
    KafkaRecords.Received received = KafkaRecords.read(address, record);
    if (received.droppedHeaders() > 0) {
      droppedHeaders.addAndGet(received.droppedHeaders());
      LOG.fine(
          () ->
              "Dropped "
                  + received.droppedHeaders()
                  + " header(s) of a record at "
                  + address
                  + " that were not safe to carry (see kafka.droppedHeaders)");
    }
    return received.copy();
  }

  private List<Receiver> receiversOf(MailAddress address) {
    List<Receiver> present = receivers.getOrDefault(address, List.of());
    return present.stream().filter(Receiver::isActive).toList();
  }

  /** One record to the subscribers present, or given up at the delivery cap. */
  private void deliver(MailAddress address, MailMessage copy) {
    lastActivity.put(address, now());
    int deliveredBefore = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 0);
    if (settings.maxDeliveries() > 0 && deliveredBefore >= settings.maxDeliveries()) {
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

  // ---- settlement ------------------------------------------------------------------------------

  @Override
  public void acknowledge(MailAddress topic, MailMessage copy) {
    TopicReader reader = readers.get(topic);
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
    TopicReader reader = readers.get(address);
    if (reader == null) {
      return false;
    }
    int round = SystemHeaders.intHeader(copy, SystemHeaders.ROUND, 1);
    return reader.retryLater(
        copy.sendId().orElseThrow(),
        copy,
        retryDelay(round),
        (delay, task) -> scheduler().schedule(delay, task));
  }

  /** 1 s after the first round, doubling, at most 30 s. */
  static Duration retryDelay(int round) {
    return Backoff.after(round, FIRST_RETRY_DELAY, LAST_RETRY_DELAY);
  }

  /** The end of a dead-letter chain: written to {@code <topic>_parked}, never read back. */
  @Override
  public void park(MailAddress address, MailMessage record) {
    String parked = names.topic(address) + PARKED_SUFFIX;
    cluster.ensureTopic(address, parked, "(none: parked records are not read)");
    publisher.publishAll(List.of(address), List.of(parked), List.of(record));
    LOG.warning(() -> "Parked " + record + " in Kafka topic " + parked);
  }

  /**
   * Deletes the records of every topic this provider used (Kafka's delete-records: every group
   * loses them); returns how many went.
   */
  @Override
  public long clearBacklog() {
    long dropped = 0;
    for (MailAddress address : known()) {
      String topic = names.topic(address);
      if (cluster.known(topic)) {
        dropped += cluster.purge(topic);
      }
    }
    return dropped;
  }

  // ---- status ----------------------------------------------------------------------------------

  @Override
  public AddressStatus status(MailAddress address) {
    TopicReader reader = readers.get(address);
    return new KafkaStatus(cluster, names, settings.defaultGroup())
        .of(
            address,
            reader,
            broadcastsInFlight(address),
            receiversOf(address).size(),
            droppedHeaders.get(),
            lastActivity.get(address));
  }

  /** The topics with the provider's prefix (from any server), and the addresses used here. */
  @Override
  public List<AddressStatus> enumerate() {
    Set<MailAddress> listed = new TreeSet<>(known());
    try {
      for (String topic : cluster.ownedTopics()) {
        if (!topic.endsWith(PARKED_SUFFIX)) {
          names.address(topic).ifPresent(listed::add);
        }
      }
    } catch (MailboxException unreachable) {
      LOG.fine(() -> "Kafka topics not listed: " + unreachable.getMessage());
    }
    return listed.stream().map(this::status).toList();
  }

  private Set<MailAddress> known() {
    Set<MailAddress> known = new TreeSet<>(lastActivity.keySet());
    known.addAll(readers.keySet());
    return known;
  }

  @Override
  public void bookkeeping(Map<String, Long> sizes) {
    sizes.put(SCHEME + ".readers", (long) readers.size());
    sizes.put(
        SCHEME + ".inFlight", readers.values().stream().mapToLong(TopicReader::inFlight).sum());
    sizes.put(SCHEME + ".lastActivity", (long) lastActivity.size());
  }
}
