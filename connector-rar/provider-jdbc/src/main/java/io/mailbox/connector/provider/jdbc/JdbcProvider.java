package io.mailbox.connector.provider.jdbc;

import static io.mailbox.connector.provider.jdbc.AddressRows.LEASED;
import static io.mailbox.connector.provider.jdbc.AddressRows.PARKED;
import static io.mailbox.connector.provider.jdbc.AddressRows.READY;
import static io.mailbox.connector.provider.jdbc.JdbcSql.hash;
import static io.mailbox.connector.provider.jdbc.JdbcSql.update;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.BoundsItsPublish;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
import io.mailbox.connector.spi.KeepsBatchOrder;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.Locating;
import io.mailbox.connector.spi.MessageJson;
import io.mailbox.connector.spi.ParkedRecords;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Removing;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.TransportBase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * The {@code jdbc:} provider: one row per copy in {@code MBX_QUEUE} of the application's own
 * database (DDL: {@code server-config/sql/<database>/queue.sql}). A post returns once its row is
 * committed; a leased row is invisible until its visibility timeout (the lease) ends, so a crashed
 * consumer's messages come back by themselves, also after a server restart. Every status write is a
 * compare-and-set on the state and the lease id (the receipt): a stale handle settles nothing.
 *
 * <p>Subscriptions are local to this provider instance: a message posted while this instance has
 * subscribers is written as leased to them and settled by the broadcast; otherwise it is queued.
 * Status and snapshot read indexed counts from the table.
 */
public final class JdbcProvider extends TransportBase
    implements BoundsItsPublish,
        KeepsBatchOrder,
        Peeking,
        Recovering,
        Enumerating,
        Locating,
        ParkedRecords,
        Removing,
        HandsBacklogToSubscribers {
  public static final String SCHEME = "jdbc";

  private final JdbcSql db;
  private final boolean createTable;
  private final DedupeWindow dedupe;
  private final QueueWriter writer;
  private final AddressRows rows;
  private final QueueTaker taker;
  private final JdbcStatus status;
  private final SubscriberPump pump;
  private final Map<MailAddress, Instant> known = new ConcurrentHashMap<>();

  public JdbcProvider(DataSource dataSource, Clock clock, Scheduler scheduler) {
    this(dataSource, clock, scheduler, false);
  }

  /**
   * @param createTable create {@code MBX_QUEUE} with the shipped DDL of the database's product (H2,
   *     PostgreSQL, MariaDB/MySQL) when it is missing
   */
  public JdbcProvider(
      DataSource dataSource, Clock clock, Scheduler scheduler, boolean createTable) {
    this(dataSource, clock, scheduler, createTable, 0, Duration.ZERO);
  }

  /**
   * @param maxDeliveries leased deliveries a copy gets; the one that would exceed it dead-letters
   *     the copy instead (reason {@code max-deliveries}); 0 = no cap
   * @param timeToLive how long a copy may wait after it was sent; an older one is dead-lettered
   *     instead of handed out (reason {@code ttl}); zero = forever
   */
  public JdbcProvider(
      DataSource dataSource,
      Clock clock,
      Scheduler scheduler,
      boolean createTable,
      int maxDeliveries,
      Duration timeToLive) {
    super(clock, scheduler);
    if (maxDeliveries < 0 || timeToLive == null || timeToLive.isNegative()) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY,
          "The jdbc: provider needs maxDeliveries >= 0 and a time to live of zero (forever) or more.");
    }
    this.db = new JdbcSql(dataSource);
    this.dedupe = new DedupeWindow(db, clock, scheduler, this::isStarted);
    this.writer = new QueueWriter(db, dedupe, clock, address -> known.put(address, now()));
    this.rows = new AddressRows(db);
    this.taker = new QueueTaker(db, clock, maxDeliveries, timeToLive, this::giveUpQueued);
    this.pump = new SubscriberPump(scheduler, this::isStarted, this::handBacklogTo);
    this.status = new JdbcStatus(rows, writer, pump, known);
    this.createTable = createTable;
  }

  /**
   * Collapses a post whose de-duplication id (else message id) this address saw within {@code
   * window} (kept in {@code MBX_QUEUE_SEEN}, so it survives restarts); {@link Duration#ZERO}
   * switches it off (the default). Call before {@link #start()}.
   */
  public JdbcProvider withDedupeWindow(Duration window) {
    dedupe.set(window);
    return this;
  }

  /**
   * Group commit (on by default): rows posted concurrently are written in one transaction of up to
   * 500 rows. Off, every post is its own transaction. Durability is the same either way; a post
   * returns after its row committed. Call before {@link #start()}.
   */
  public JdbcProvider withGroupCommit(boolean on) {
    writer.groupCommit(on);
    return this;
  }

  /** How long a post waits for its INSERT: then {@code MBX-2009}; zero: unbounded. Default 15 s. */
  public JdbcProvider withPublishTimeout(Duration bound) {
    writer.publishBound(bound);
    return this;
  }

  /** How often rows nobody pushed go to their address's subscribers ({@link SubscriberPump}). */
  public JdbcProvider withSubscriberPoll(Duration interval) {
    pump.interval(interval);
    return this;
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public void start() {
    dedupe.startSweeping(true);
    if (createTable) {
      QueueTable.createIfMissing(db);
    }
  }

  @Override
  public void stop(boolean purge) {
    pump.stop();
    dedupe.stop();
    if (purge) {
      clearBacklog();
    }
  }

  @Override
  public void replaceGivenUp(MailAddress topic, MailMessage copy, Runnable storeReplacement) {
    // One transaction: the copy leaves its topic only together with its dead-letter record.
    db.inOneTransaction(() -> super.replaceGivenUp(topic, copy, storeReplacement));
  }

  private static String key(MailMessage copy) {
    return copy.sendId().orElseThrow();
  }

  // ---- sending and subscribing ------------------------------------------------------------------

  @Override
  public void send(MailAddress topic, MailMessage copy) {
    store(List.of(topic), List.of(copy));
  }

  @Override
  public void sendAll(List<MailMessage> copies) {
    store(copies.stream().map(MailMessage::to).toList(), copies);
  }

  /**
   * Stores each copy at its topic (together: shared transactions), then hands the ones whose topic
   * has subscribers to them. A topic differs from {@code copy.to()} for dead-letter records.
   */
  private void store(List<MailAddress> topics, List<MailMessage> copies) {
    List<QueueWriter.Row> rows = new ArrayList<>(copies.size());
    List<List<Receiver>> receivers = new ArrayList<>(copies.size());
    long broadcastUntil = now().toEpochMilli() + broadcastWindowMillis();
    for (int c = 0; c < copies.size(); c++) {
      MailAddress topic = topics.get(c);
      MailMessage copy = copies.get(c);
      List<Receiver> listening = pump.receivers(topic);
      receivers.add(listening);
      // With subscribers a row is committed as leased to the broadcast: if the process dies
      // before a subscriber handled it, the row becomes visible again after the settle window and
      // a fetch takes it (at least once).
      rows.add(
          listening.isEmpty()
              ? new QueueWriter.Row(topic, copy, READY, null, 0, true)
              : new QueueWriter.Row(topic, copy, LEASED, "broadcast", broadcastUntil, true));
    }
    List<Boolean> inserted = writer.insertAll(rows);
    for (int i = 0; i < rows.size(); i++) {
      List<Receiver> listening = receivers.get(i);
      if (listening.isEmpty() || !inserted.get(i)) {
        continue;
      }
      MailAddress topic = rows.get(i).topic();
      MailMessage copy = rows.get(i).copy();
      db.afterCommit(() -> dispatch(topic, copy, listening));
    }
  }

  /**
   * The broadcast window: a copy handed to subscribers stays leased this long, so one that was
   * never settled (the process died) becomes available again afterwards.
   */
  private long broadcastWindowMillis() {
    return Math.max(60_000, 2 * deliverySettleTimeout().toMillis());
  }

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver subscription) {
    known.putIfAbsent(address, Instant.EPOCH);
    return pump.add(address, subscription);
  }

  /** One round of the pump for one address: its available rows, leased to a broadcast. */
  private void handBacklogTo(MailAddress address, List<Receiver> receivers) {
    Instant now = now();
    Lease broadcast = new Lease("broadcast", now, now.plusMillis(broadcastWindowMillis()));
    for (MailMessage copy :
        takeQueued(address, SubscriberPump.BATCH, broadcast, UnaryOperator.identity())) {
      dispatch(address, copy, receivers);
    }
  }

  // ---- taking and settling ----------------------------------------------------------------------

  /**
   * Takes available rows (queued, or leased with the lease over) in write order: under {@code
   * lease}, or deleted at once without one (auto-ack is at most once). A row whose time to live or
   * delivery cap is spent is given up instead — by the one caller whose delete wins.
   */
  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    List<MailMessage> taken = taker.take(address, limit, lease, handOut);
    if (!taken.isEmpty()) {
      known.put(address, now());
    }
    return taken;
  }

  @Override
  public Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
    // The receipt check: only the current hand-out of this copy may settle it.
    return rows
        .messages(
            "SELECT MESSAGE FROM MBX_QUEUE WHERE COPY_KEY = ? AND ADDRESS_HASH = ? AND STATE = 'LEASED' AND LEASE_ID = ?",
            1,
            key,
            hash(address),
            leaseId)
        .stream()
        .findFirst();
  }

  @Override
  public void acknowledge(MailAddress topic, MailMessage copy) {
    db.run(
        c -> update(c, "DELETE FROM MBX_QUEUE WHERE COPY_KEY = ? AND STATE = 'LEASED'", key(copy)));
    known.put(topic, now());
  }

  @Override
  public void abandon(MailAddress topic, MailMessage copy) {
    db.run(
        c ->
            update(
                c,
                "DELETE FROM MBX_QUEUE WHERE COPY_KEY = ? AND STATE IN ('READY', 'LEASED')",
                key(copy)));
  }

  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    long now = now().toEpochMilli();
    int updated =
        db.run(
            c ->
                update(
                    c,
                    "UPDATE MBX_QUEUE SET STATE = 'READY', LEASE_ID = NULL, VISIBLE_AT = 0, MESSAGE = ?, UPDATED_AT = ?"
                        + " WHERE COPY_KEY = ? AND STATE = 'LEASED'",
                    MessageJson.write(copy),
                    now,
                    key(copy)));
    if (updated == 1) {
      return true;
    }
    if (rows.holds(key(copy))) {
      return false; // already queued: never twice
    }
    writer.insert(address, copy, READY);
    return true;
  }

  @Override
  public void park(MailAddress address, MailMessage record) {
    int updated =
        db.run(
            c ->
                update(
                    c,
                    "UPDATE MBX_QUEUE SET STATE = 'PARKED', LEASE_ID = NULL, MESSAGE = ?, UPDATED_AT = ? WHERE COPY_KEY = ?",
                    MessageJson.write(record),
                    now().toEpochMilli(),
                    key(record)));
    if (updated == 0) {
      writer.insert(address, record, PARKED);
    }
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    return rows.reclaimExpired(address, now().toEpochMilli());
  }

  @Override
  public long clearBacklog() {
    return db.run(c -> update(c, "DELETE FROM MBX_QUEUE WHERE STATE IN ('READY', 'LEASED')"));
  }

  // ---- what an operator sees and removes
  // ---------------------------------------------------------

  @Override
  public List<MailMessage> peekQueued(MailAddress address, int limit) {
    return rows.inState(address, READY, limit);
  }

  @Override
  public List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return rows.inState(address, PARKED, limit);
  }

  @Override
  public List<InFlightCopy> inFlightCopies(MailAddress address, int limit) {
    return rows.inFlight(address, limit);
  }

  @Override
  public List<LocatedCopy> locateCopies(String messageId) {
    return rows.locate(messageId);
  }

  @Override
  public int removeParked(MailAddress address, String key) {
    return rows.remove(address, PARKED, key);
  }

  @Override
  public int removeQueuedCopies(MailAddress address, String key) {
    return rows.remove(address, READY, key);
  }

  @Override
  public AddressStatus status(MailAddress address) {
    return status.of(address, now());
  }

  /** See {@link JdbcStatus#bookkeeping}. */
  @Override
  public void bookkeeping(Map<String, Long> sizes) {
    status.bookkeeping(sizes, now());
  }

  @Override
  public List<AddressStatus> enumerate() {
    return status.all(now());
  }
}
