package io.mailbox.connector.provider.jdbc;

import static io.mailbox.connector.provider.jdbc.JdbcSql.bind;
import static io.mailbox.connector.provider.jdbc.JdbcSql.hash;
import static io.mailbox.connector.provider.jdbc.JdbcSql.update;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.CopyState;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
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
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
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
    implements Peeking,
        Recovering,
        Enumerating,
        Locating,
        ParkedRecords,
        Removing,
        HandsBacklogToSubscribers {
  public static final String SCHEME = "jdbc";
  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(JdbcProvider.class.getName());
  private static final String READY = "READY";
  private static final int MAX_GROUP = 500;
  private static final int PUMP_BATCH = 100;
  private static final String LEASED = "LEASED";
  private static final String PARKED = "PARKED";
  // Taken when a row is free: queued, or leased with its visibility timeout over.
  private static final String AVAILABLE =
      "(STATE = 'READY' OR (STATE = 'LEASED' AND VISIBLE_AT <= ?))";

  private final JdbcSql db;
  private final boolean createTable;
  private final int maxDeliveries;
  private final java.time.Duration timeToLive;
  private final DedupeWindow dedupe;
  private final AtomicLong collapsed = new AtomicLong();
  private final AtomicLong sequence = new AtomicLong();
  private final Map<MailAddress, List<Receiver>> subscribers = new ConcurrentHashMap<>();
  private final Map<MailAddress, Instant> known = new ConcurrentHashMap<>();
  private GroupCommit<Row, Boolean> groupCommit = newGroupCommit();
  private java.time.Duration subscriberPoll = java.time.Duration.ofSeconds(1);
  private io.mailbox.connector.spi.Scheduler.Cancellable pump; // guarded by this

  public JdbcProvider(DataSource dataSource, Clock clock, Scheduler scheduler) {
    this(dataSource, clock, scheduler, false);
  }

  /**
   * @param createTable create {@code MBX_QUEUE} with the shipped DDL of the database's product (H2,
   *     PostgreSQL, MariaDB/MySQL) when it is missing
   */
  public JdbcProvider(
      DataSource dataSource, Clock clock, Scheduler scheduler, boolean createTable) {
    this(dataSource, clock, scheduler, createTable, 0, java.time.Duration.ZERO);
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
      java.time.Duration timeToLive) {
    super(clock, scheduler);
    if (maxDeliveries < 0 || timeToLive == null || timeToLive.isNegative()) {
      throw new io.mailbox.connector.api.MailboxException(
          io.mailbox.connector.api.ErrorCode.INVALID_POLICY,
          "The jdbc: provider needs maxDeliveries >= 0 and a time to live of zero (forever) or more.");
    }
    this.db = new JdbcSql(dataSource);
    this.dedupe = new DedupeWindow(db, clock, scheduler, this::isStarted);
    this.createTable = createTable;
    this.maxDeliveries = maxDeliveries;
    this.timeToLive = timeToLive;
  }

  /**
   * Collapses a post whose message id this address saw within {@code window} (kept in {@code
   * MBX_QUEUE_SEEN}, so it survives restarts); {@link java.time.Duration#ZERO} switches it off (the
   * default). Call before {@link #start()}.
   */
  public JdbcProvider withDedupeWindow(java.time.Duration window) {
    dedupe.set(window);
    return this;
  }

  /**
   * Group commit (on by default): rows posted concurrently are written in one transaction of up to
   * {@value #MAX_GROUP} rows. Off, every post is its own transaction. Durability is the same either
   * way; a post returns after its row committed. Call before {@link #start()}.
   */
  public JdbcProvider withGroupCommit(boolean on) {
    this.groupCommit = on ? newGroupCommit() : null;
    return this;
  }

  private GroupCommit<Row, Boolean> newGroupCommit() {
    return new GroupCommit<>(
        rows -> {
          try (Connection connection = db.connection()) {
            return writeRows(connection, rows);
          }
        },
        MAX_GROUP);
  }

  @Override
  public void start() {
    dedupe.startSweeping(true);
    if (createTable) {
      db.run(
          c -> {
            if (!tableExists(c)) {
              String product =
                  c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
              String kind =
                  product.contains("postgres")
                      ? "postgresql"
                      : product.contains("h2") ? "h2" : "mariadb";
              try (var ddl = JdbcProvider.class.getResourceAsStream("sql/" + kind + "/queue.sql");
                  var statement = c.createStatement()) {
                String text =
                    new String(ddl.readAllBytes(), StandardCharsets.UTF_8)
                        .replaceAll("(?m)^--.*$", "");
                for (String part : text.split(";")) {
                  if (!part.isBlank()) {
                    statement.execute(part.strip());
                  }
                }
              } catch (java.io.IOException e) {
                throw new SQLException("the bundled queue DDL cannot be read", e);
              }
            }
            return null;
          });
    }
  }

  private static boolean tableExists(Connection c) throws SQLException {
    for (String name : new String[] {"MBX_QUEUE", "mbx_queue"}) {
      try (ResultSet tables = c.getMetaData().getTables(null, null, name, null)) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public void replaceGivenUp(MailAddress topic, MailMessage copy, Runnable storeReplacement) {
    // One transaction: the copy leaves its topic only together with its dead-letter record.
    db.inOneTransaction(() -> super.replaceGivenUp(topic, copy, storeReplacement));
  }

  /** Write order: microseconds of this clock, never going backwards within the process. */
  private long nextSequence() {
    long micros = now().toEpochMilli() * 1000;
    return sequence.accumulateAndGet(micros, (last, candidate) -> Math.max(last + 1, candidate));
  }

  private static String key(MailMessage copy) {
    return copy.sendId().orElseThrow();
  }

  /** One row to write: a post (deduped when a window is set) or a requeued/parked copy. */
  private record Row(
      MailAddress topic,
      MailMessage copy,
      String state,
      String leaseId,
      long visibleAt,
      boolean dedupe) {}

  /**
   * Commits one row. With a dedupe window the id is admitted in the same transaction: a post whose
   * id this address saw inside the window is collapsed (logged, never silently), and a crash can
   * never admit an id without its row.
   *
   * @return false when the post was collapsed as a duplicate
   */
  private boolean insert(
      MailAddress topic, MailMessage copy, String state, String leaseId, long visibleAt) {
    return insert(topic, copy, state, leaseId, visibleAt, true);
  }

  /**
   * As above; {@code dedupe = false} for copies that are not new posts (a requeue, a parked
   * record). With group commit on, rows written by concurrent callers share one transaction; this
   * call still returns only after the transaction holding its row committed.
   */
  private boolean insert(
      MailAddress topic,
      MailMessage copy,
      String state,
      String leaseId,
      long visibleAt,
      boolean dedupe) {
    return insertAll(List.of(new Row(topic, copy, state, leaseId, visibleAt, dedupe))).get(0);
  }

  /**
   * Commits rows issued together, in order: in the caller's scoped transaction if there is one,
   * else through group commit (sharing transactions with other callers), else in one transaction.
   *
   * @return per row, false when the post was collapsed as a duplicate
   */
  private List<Boolean> insertAll(List<Row> rows) {
    List<Boolean> inserted =
        groupCommit == null || db.inTransaction() ? db.run(c -> writeRows(c, rows)) : submit(rows);
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      known.put(row.topic(), now());
      if (!inserted.get(i)) {
        collapsed.incrementAndGet();
        LOG.info(
            () ->
                "Collapsed "
                    + row.copy()
                    + " at "
                    + row.topic()
                    + ": its id was posted there within "
                    + dedupe.window());
      }
    }
    return inserted;
  }

  private List<Boolean> submit(List<Row> rows) {
    try {
      return rows.size() == 1
          ? List.of(groupCommit.submit(rows.get(0)))
          : groupCommit.submitAll(rows);
    } catch (GroupCommit.GroupCommitFailure failure) {
      if (failure.getCause() instanceof SQLException cause) {
        throw failure.committed() == 0
            ? new JdbcQueueException(cause)
            : new JdbcQueueException(cause, failure.committed(), failure.submitted());
      }
      throw failure;
    }
  }

  /**
   * Writes {@code rows} in one transaction on {@code c}, in order (each gets the next sequence).
   *
   * @return per row, false when it was collapsed as a duplicate
   */
  private List<Boolean> writeRows(Connection c, List<Row> rows) throws SQLException {
    long now = now().toEpochMilli();
    List<Boolean> written = new ArrayList<>(rows.size());
    boolean own = !db.isScoped(c); // inside a scoped transaction its owner commits
    if (own) {
      c.setAutoCommit(false);
    }
    try (PreparedStatement statement =
        c.prepareStatement(
            "INSERT INTO MBX_QUEUE (COPY_KEY, ADDRESS_HASH, ADDRESS, SEQ, MESSAGE_ID, MESSAGE, STATE,"
                + " LEASE_ID, VISIBLE_AT, DELIVERIES, UPDATED_AT) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)")) {
      for (Row row : rows) {
        if (row.dedupe() && dedupe.isOn() && !dedupe.admit(c, row.topic(), row.copy().id(), now)) {
          written.add(false);
          continue;
        }
        bind(
            statement,
            key(row.copy()),
            hash(row.topic()),
            row.topic().toString(),
            nextSequence(),
            row.copy().id(),
            MessageJson.write(row.copy()),
            row.state(),
            row.leaseId(),
            row.visibleAt(),
            now);
        statement.addBatch();
        written.add(true);
      }
      statement.executeBatch();
      if (own) {
        c.commit();
      }
      return written;
    } catch (SQLException | RuntimeException e) {
      if (own) {
        c.rollback();
      }
      throw e;
    }
  }

  // ---- the transport ----------------------------------------------------------------------------

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
    List<Row> rows = new ArrayList<>(copies.size());
    List<List<Receiver>> receivers = new ArrayList<>(copies.size());
    long broadcastUntil = now().toEpochMilli() + broadcastWindowMillis();
    for (int c = 0; c < copies.size(); c++) {
      MailAddress topic = topics.get(c);
      MailMessage copy = copies.get(c);
      List<Receiver> listening = List.copyOf(subscribers.getOrDefault(topic, List.of()));
      receivers.add(listening);
      // With subscribers a row is committed as leased to the broadcast: if the process dies
      // before a subscriber handled it, the row becomes visible again after the settle window and
      // a fetch takes it (at least once).
      rows.add(
          listening.isEmpty()
              ? new Row(topic, copy, READY, null, 0, true)
              : new Row(topic, copy, LEASED, "broadcast", broadcastUntil, true));
    }
    List<Boolean> inserted = insertAll(rows);
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
    List<Receiver> list = subscribers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    list.add(subscription);
    known.putIfAbsent(address, Instant.EPOCH);
    startPump();
    return () -> list.remove(subscription);
  }

  /**
   * How often rows nobody pushed are handed to the subscribers of their address: rows queued while
   * an address had no subscriber (before a consumer started, or by another server), and broadcast
   * rows whose window ended unsettled (the process died mid-delivery). Default one second.
   */
  public JdbcProvider withSubscriberPoll(java.time.Duration interval) {
    if (interval == null || interval.isNegative() || interval.isZero()) {
      throw new io.mailbox.connector.api.MailboxException(
          io.mailbox.connector.api.ErrorCode.INVALID_POLICY,
          "The subscriber poll interval must be positive.");
    }
    this.subscriberPoll = interval;
    return this;
  }

  private synchronized void startPump() {
    if (pump == null && isStarted()) {
      pump = scheduler().schedule(java.time.Duration.ZERO, this::pumpQueuedToSubscribers);
    }
  }

  private void pumpQueuedToSubscribers() {
    try {
      for (Map.Entry<MailAddress, List<Receiver>> entry : subscribers.entrySet()) {
        List<Receiver> receivers = List.copyOf(entry.getValue());
        if (receivers.isEmpty()) {
          continue;
        }
        Instant now = now();
        Lease broadcast = new Lease("broadcast", now, now.plusMillis(broadcastWindowMillis()));
        for (MailMessage copy :
            takeQueued(entry.getKey(), PUMP_BATCH, broadcast, UnaryOperator.identity())) {
          dispatch(entry.getKey(), copy, receivers);
        }
      }
    } catch (RuntimeException e) {
      // The database may be briefly away; the rows stay where they are and the next round retries.
      LOG.warning(() -> "Could not hand queued jdbc: rows to subscribers: " + e.getMessage());
    } finally {
      synchronized (this) {
        pump =
            isStarted()
                ? scheduler().schedule(subscriberPoll, this::pumpQueuedToSubscribers)
                : null;
      }
    }
  }

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    long now = now().toEpochMilli();
    List<String[]> candidates =
        db.run(
            c -> {
              try (PreparedStatement select =
                  c.prepareStatement(
                      "SELECT COPY_KEY, MESSAGE, DELIVERIES FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND "
                          + AVAILABLE
                          + " ORDER BY SEQ")) {
                bind(select, hash(address), now);
                select.setMaxRows(limit * 2 + 8);
                List<String[]> rows = new ArrayList<>();
                try (ResultSet result = select.executeQuery()) {
                  while (result.next()) {
                    rows.add(
                        new String[] {
                          result.getString(1),
                          result.getString(2),
                          Integer.toString(result.getInt(3))
                        });
                  }
                }
                return rows;
              }
            });
    List<MailMessage> taken = new ArrayList<>();
    for (String[] row : candidates) {
      if (taken.size() == limit) {
        break;
      }
      MailMessage stored = MessageJson.read(MessageJson.parse(row[1]));
      int deliveries = Integer.parseInt(row[2]);
      String spent = spentReason(stored, deliveries, lease != null);
      if (spent != null) {
        // Only the consumer whose delete wins dead-letters it: one give-up, one record — and the
        // delete commits only together with that record.
        db.inOneTransaction(
            () -> {
              if (db.run(
                      c ->
                          update(
                              c,
                              "DELETE FROM MBX_QUEUE WHERE COPY_KEY = ? AND " + AVAILABLE,
                              row[0],
                              now))
                  == 1) {
                giveUpQueued(address, stored, spent, deliveries);
              }
            });
        continue;
      }
      MailMessage copy = handOut.apply(stored);
      boolean won =
          lease == null
              // Auto-ack is at most once: the row is gone when it is handed out.
              ? db.run(
                      c ->
                          update(
                              c,
                              "DELETE FROM MBX_QUEUE WHERE COPY_KEY = ? AND " + AVAILABLE,
                              row[0],
                              now))
                  == 1
              : db.run(
                      c ->
                          update(
                              c,
                              "UPDATE MBX_QUEUE SET STATE = 'LEASED', LEASE_ID = ?, VISIBLE_AT = ?, DELIVERIES ="
                                  + " DELIVERIES + 1, MESSAGE = ?, UPDATED_AT = ? WHERE COPY_KEY = ? AND "
                                  + AVAILABLE,
                              lease.id(),
                              lease.expiresAt() == null
                                  ? Long.MAX_VALUE
                                  : lease.expiresAt().toEpochMilli(),
                              MessageJson.write(copy),
                              now,
                              row[0],
                              now))
                  == 1;
      if (won) {
        taken.add(copy);
      }
    }
    if (!taken.isEmpty()) {
      known.put(address, now());
    }
    return taken;
  }

  /** Why a queued copy must not be handed out any more, or {@code null}. */
  private String spentReason(MailMessage stored, int deliveries, boolean leased) {
    if (!timeToLive.isZero()) {
      Instant sentAt =
          stored
              .header(io.mailbox.connector.api.SystemHeaders.SENT_AT)
              .map(Instant::parse)
              .orElse(Instant.EPOCH);
      if (!sentAt.plus(timeToLive).isAfter(now())) {
        return "ttl";
      }
    }
    return leased && maxDeliveries > 0 && deliveries >= maxDeliveries ? "max-deliveries" : null;
  }

  @Override
  public List<MailMessage> peekQueued(MailAddress address, int limit) {
    return messages(
        "SELECT MESSAGE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = 'READY' ORDER BY SEQ",
        limit,
        hash(address));
  }

  private List<MailMessage> messages(String select, int limit, Object... values) {
    return db.run(
        c -> {
          try (PreparedStatement statement = c.prepareStatement(select)) {
            bind(statement, values);
            statement.setMaxRows(limit);
            List<MailMessage> found = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
              while (result.next()) {
                found.add(MessageJson.read(MessageJson.parse(result.getString(1))));
              }
            }
            return found;
          }
        });
  }

  @Override
  public Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
    // The receipt check: only the current hand-out of this copy may settle it.
    return messages(
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
    boolean exists =
        db.run(
            c -> {
              try (PreparedStatement select =
                  c.prepareStatement("SELECT 1 FROM MBX_QUEUE WHERE COPY_KEY = ?")) {
                bind(select, key(copy));
                try (ResultSet result = select.executeQuery()) {
                  return result.next();
                }
              }
            });
    if (exists) {
      return false; // already queued: never twice
    }
    insert(address, copy, READY, null, 0, false);
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
      insert(address, record, PARKED, null, 0, false);
    }
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    long now = now().toEpochMilli();
    return db.run(
        c ->
            update(
                c,
                "UPDATE MBX_QUEUE SET STATE = 'READY', LEASE_ID = NULL, VISIBLE_AT = 0, UPDATED_AT = ?"
                    + " WHERE ADDRESS_HASH = ? AND STATE = 'LEASED' AND VISIBLE_AT <= ?",
                now,
                hash(address),
                now));
  }

  @Override
  public List<LocatedCopy> locateCopies(String messageId) {
    long now = now().toEpochMilli();
    return db.run(
        c -> {
          try (PreparedStatement select =
              c.prepareStatement(
                  "SELECT ADDRESS, COPY_KEY, LEASE_ID, STATE FROM MBX_QUEUE WHERE MESSAGE_ID = ? ORDER BY ADDRESS, SEQ")) {
            bind(select, messageId);
            List<LocatedCopy> found = new ArrayList<>();
            try (ResultSet result = select.executeQuery()) {
              while (result.next()) {
                String state = result.getString(4);
                found.add(
                    new LocatedCopy(
                        MailAddress.parse(result.getString(1)),
                        messageId,
                        result.getString(2),
                        LEASED.equals(state) ? result.getString(3) : null,
                        READY.equals(state)
                            ? CopyState.QUEUED
                            : LEASED.equals(state) ? CopyState.IN_FLIGHT : CopyState.PARKED));
              }
            }
            return found;
          }
        });
  }

  @Override
  public List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return messages(
        "SELECT MESSAGE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = 'PARKED' ORDER BY SEQ",
        limit,
        hash(address));
  }

  @Override
  public int removeParked(MailAddress address, String key) {
    return key == null
        ? db.run(
            c ->
                update(
                    c,
                    "DELETE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = 'PARKED'",
                    hash(address)))
        : db.run(
            c ->
                update(
                    c,
                    "DELETE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = 'PARKED' AND COPY_KEY = ?",
                    hash(address),
                    key));
  }

  /** Leased rows of the address, oldest first; the hand-out time is the row's last update. */
  @Override
  public List<io.mailbox.connector.api.InFlightCopy> inFlightCopies(
      MailAddress address, int limit) {
    return db.run(
        c -> {
          try (PreparedStatement select =
              c.prepareStatement(
                  "SELECT COPY_KEY, MESSAGE_ID, LEASE_ID, UPDATED_AT, VISIBLE_AT FROM MBX_QUEUE"
                      + " WHERE ADDRESS_HASH = ? AND STATE = 'LEASED' ORDER BY SEQ")) {
            select.setString(1, hash(address));
            select.setMaxRows(limit);
            List<io.mailbox.connector.api.InFlightCopy> copies = new ArrayList<>();
            try (var rows = select.executeQuery()) {
              while (rows.next()) {
                long visibleAt = rows.getLong(5);
                copies.add(
                    new io.mailbox.connector.api.InFlightCopy(
                        address,
                        rows.getString(2),
                        rows.getString(1),
                        rows.getString(3),
                        Instant.ofEpochMilli(rows.getLong(4)),
                        visibleAt == Long.MAX_VALUE ? null : Instant.ofEpochMilli(visibleAt)));
              }
            }
            return copies;
          }
        });
  }

  @Override
  public int removeQueuedCopies(MailAddress address, String key) {
    return key == null
        ? db.run(
            c ->
                update(
                    c,
                    "DELETE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = 'READY'",
                    hash(address)))
        : db.run(
            c ->
                update(
                    c,
                    "DELETE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = 'READY' AND COPY_KEY = ?",
                    hash(address),
                    key));
  }

  @Override
  public long clearBacklog() {
    return db.run(c -> update(c, "DELETE FROM MBX_QUEUE WHERE STATE IN ('READY', 'LEASED')"));
  }

  @Override
  public void stop(boolean purge) {
    synchronized (this) {
      if (pump != null) {
        pump.cancel();
        pump = null;
      }
    }
    dedupe.stop();
    if (purge) {
      clearBacklog();
    }
  }

  // ---- status ----------------------------------------------------------------------------------

  @Override
  public AddressStatus status(MailAddress address) {
    long now = now().toEpochMilli();
    long[] counts = new long[5]; // ready, leased, parked, overdue, last update
    db.run(
        c -> {
          try (PreparedStatement select =
              c.prepareStatement(
                  "SELECT STATE, COUNT(*), MAX(UPDATED_AT), SUM(CASE WHEN VISIBLE_AT <= ? THEN 1 ELSE 0 END)"
                      + " FROM MBX_QUEUE WHERE ADDRESS_HASH = ? GROUP BY STATE")) {
            bind(select, now, hash(address));
            try (ResultSet result = select.executeQuery()) {
              while (result.next()) {
                String state = result.getString(1);
                long count = result.getLong(2);
                counts[4] = Math.max(counts[4], result.getLong(3));
                if (READY.equals(state)) {
                  counts[0] = count;
                } else if (LEASED.equals(state)) {
                  counts[1] = count;
                  counts[3] = result.getLong(4);
                } else if (PARKED.equals(state)) {
                  counts[2] = count;
                }
              }
            }
            return null;
          }
        });
    Instant remembered = known.get(address);
    boolean exists = counts[0] + counts[1] + counts[2] > 0 || remembered != null;
    if (!exists) {
      return AddressStatus.unknown(address);
    }
    Instant lastActivity = counts[4] > 0 ? Instant.ofEpochMilli(counts[4]) : null;
    if (remembered != null
        && !remembered.equals(Instant.EPOCH)
        && (lastActivity == null || remembered.isAfter(lastActivity))) {
      lastActivity = remembered;
    }
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".overdueInFlightCount", counts[3]);
    extensions.put(SCHEME + ".parkedCount", counts[2]);
    extensions.put(
        SCHEME + ".subscriberCount", subscribers.getOrDefault(address, List.of()).size());
    extensions.put(SCHEME + ".collapsedDuplicates", collapsed.get());
    if (groupCommit != null) {
      // Process-wide, like the counter above: how well concurrent posts share transactions.
      extensions.put(SCHEME + ".groupCommit.batches", groupCommit.batches());
      extensions.put(SCHEME + ".groupCommit.rows", groupCommit.items());
      extensions.put(SCHEME + ".groupCommit.writeMillis", groupCommit.writeMillis());
    }
    return new AddressStatus(
        address, AddressState.ONLINE, true, counts[0], counts[1], lastActivity, extensions);
  }

  /**
   * In memory: {@code jdbc.subscriberAddresses}, {@code jdbc.knownAddresses}, {@code
   * jdbc.addressHashes} (process-wide cache, capped) and {@code jdbc.groupCommitQueued}. In the
   * database (two counting queries): {@code jdbc.rows.<STATE>} of {@code MBX_QUEUE} (LEASED rows
   * are the lease table), and the dedupe window's {@code MBX_QUEUE_SEEN} as {@code jdbc.seen} (all
   * rows) and {@code jdbc.seenLive} (sightings still inside the window).
   */
  @Override
  public void bookkeeping(Map<String, Long> sizes) {
    sizes.put(SCHEME + ".subscriberAddresses", (long) subscribers.size());
    sizes.put(SCHEME + ".knownAddresses", (long) known.size());
    sizes.put(SCHEME + ".addressHashes", (long) JdbcSql.knownHashes());
    sizes.put(SCHEME + ".groupCommitQueued", groupCommit == null ? 0L : groupCommit.queued());
    long now = now().toEpochMilli();
    db.run(
        c -> {
          for (String state : List.of(READY, LEASED, PARKED)) {
            sizes.put(SCHEME + ".rows." + state, 0L);
          }
          try (PreparedStatement rows =
                  c.prepareStatement("SELECT STATE, COUNT(*) FROM MBX_QUEUE GROUP BY STATE");
              ResultSet result = rows.executeQuery()) {
            while (result.next()) {
              sizes.put(SCHEME + ".rows." + result.getString(1), result.getLong(2));
            }
          }
          try (PreparedStatement seen =
              c.prepareStatement(
                  "SELECT COUNT(*), COALESCE(SUM(CASE WHEN SEEN_UNTIL > ? THEN 1 ELSE 0 END), 0)"
                      + " FROM MBX_QUEUE_SEEN")) {
            bind(seen, now);
            try (ResultSet result = seen.executeQuery()) {
              result.next();
              sizes.put(SCHEME + ".seen", result.getLong(1));
              sizes.put(SCHEME + ".seenLive", result.getLong(2));
            }
          }
          return null;
        });
  }

  @Override
  public List<AddressStatus> enumerate() {
    Set<MailAddress> addresses = new TreeSet<>(known.keySet());
    db.run(
        c -> {
          try (PreparedStatement select =
                  c.prepareStatement("SELECT DISTINCT ADDRESS FROM MBX_QUEUE");
              ResultSet result = select.executeQuery()) {
            while (result.next()) {
              addresses.add(MailAddress.parse(result.getString(1)));
            }
          }
          return null;
        });
    return addresses.stream()
        .map(this::status)
        .sorted(Comparator.comparing(AddressStatus::address))
        .toList();
  }
}
