package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The readers of this process, one per address in use, each of the consumer model its address is
 * configured for ({@code kafkaQueueAddresses}): an ordered {@link TopicReader} in a classic
 * consumer group, or a {@link ShareReader} in a share group. Readers nobody uses are closed, so
 * that their partitions (or their share of the records) go to the servers still reading.
 */
final class AddressReaders {
  private static final Logger LOG = Logger.getLogger(AddressReaders.class.getName());

  /** What a reader needs from its provider. */
  interface Host {
    /** The topic of {@code address}, known to exist, its group started. */
    String prepare(MailAddress address);

    boolean hasReceivers(MailAddress address);

    /** One record to the subscribers present (on the reader's dispatch thread). */
    void deliver(MailAddress address, MailMessage copy);

    /** Whether nothing of {@code address} is leased out here. */
    boolean noLeases(MailAddress address);

    /** Runs {@code task} after {@code delay} (the provider's scheduler). */
    void after(Duration delay, Runnable task);
  }

  private final KafkaSettings settings;
  private final TopicNames names;
  private final Host host;
  private final AtomicLong droppedHeaders;
  private final Map<MailAddress, AddressReader> readers = new ConcurrentHashMap<>();
  // Whether an address is a queue, by its patterns: kept, as it is asked per record settled.
  private final Map<MailAddress, Boolean> queues = new ConcurrentHashMap<>();
  private volatile Duration idleBound = Duration.ofSeconds(30);

  AddressReaders(KafkaSettings settings, TopicNames names, Host host, AtomicLong droppedHeaders) {
    this.settings = settings;
    this.names = names;
    this.host = host;
    this.droppedHeaders = droppedHeaders;
  }

  /** The reader of {@code address}, or null when there is none here. */
  AddressReader get(MailAddress address) {
    return readers.get(address);
  }

  /** The reader of {@code address}, started on first use. */
  AddressReader of(MailAddress address) {
    AddressReader existing = readers.get(address);
    if (existing != null) {
      return existing;
    }
    String topic = host.prepare(address);
    return readers.computeIfAbsent(address, a -> start(address, topic));
  }

  private AddressReader start(MailAddress address, String topic) {
    String group = names.groupOf(address, settings.defaultGroup());
    Function<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>, MailMessage> read =
        record -> KafkaRecords.readCounting(address, record, droppedHeaders);
    AddressReader reader =
        isQueue(address)
            ? new ShareReader(
                topic,
                group,
                g -> KafkaClients.shareConsumer(settings, g),
                read,
                () -> host.hasReceivers(address),
                copy -> host.deliver(address, copy),
                host::after)
            : new TopicReader(
                topic,
                group,
                g -> KafkaClients.consumer(settings, g),
                read,
                () -> host.hasReceivers(address),
                copy -> host.deliver(address, copy),
                host::after);
    reader.start();
    return reader;
  }

  Set<MailAddress> addresses() {
    return readers.keySet();
  }

  Collection<AddressReader> all() {
    return readers.values();
  }

  int size() {
    return readers.size();
  }

  /** How long a reader without subscribers and fetches may hold its share (tests: less). */
  void releaseIdleAfter(Duration idle) {
    this.idleBound = idle;
  }

  /**
   * Closes the readers nobody uses (no subscriber, no fetch for the idle bound, nothing in flight):
   * a reader left in its group would keep its partitions, paused, and records there would wait for
   * this server instead of going to the others' subscribers.
   */
  void releaseIdle() {
    readers.forEach(
        (address, reader) -> {
          boolean idle =
              !host.hasReceivers(address)
                  && reader.idleFor().compareTo(idleBound) >= 0
                  && reader.inFlight() == 0
                  && reader.waitingForRetry() == 0
                  && host.noLeases(address);
          if (idle && readers.remove(address, reader)) {
            reader.close();
            LOG.info(() -> "Released the Kafka partitions of " + address + " (unused here)");
          }
        });
  }

  /** Closes every reader (the provider stops). */
  void closeAll() {
    readers.values().forEach(AddressReader::close);
    readers.clear();
  }

  /**
   * Whether a copy delivered {@code deliveredBefore} times goes to the dead letters instead. A
   * queue address always has a cap: its share group archives a record at the broker's delivery
   * limit, which the provider sets above it ({@link KafkaSettings#queueDeliveryCap}).
   */
  boolean overDeliveryCap(MailAddress address, int deliveredBefore) {
    int cap = isQueue(address) ? settings.queueDeliveryCap() : settings.maxDeliveries();
    return cap > 0 && deliveredBefore >= cap;
  }

  /** Whether {@code address} is read as a queue (asked per record: the answer is kept). */
  boolean isQueue(MailAddress address) {
    QueueAddresses patterns = settings.queueAddresses();
    if (patterns.patterns().isEmpty()) {
      return false;
    }
    Boolean known = queues.get(address);
    if (known == null) {
      known = patterns.isQueue(address);
      queues.put(address, known);
    }
    return known;
  }
}
