package io.mailbox.connector.provider.jdbc;

import static io.mailbox.connector.provider.jdbc.JdbcSql.bind;
import static io.mailbox.connector.provider.jdbc.JdbcSql.hash;
import static io.mailbox.connector.provider.jdbc.JdbcSql.update;

import io.mailbox.connector.api.CopyState;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.MessageJson;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements over the rows of one address, or of a message id, that take nothing: lists,
 * counts, an operator's removals, and reclaiming expired leases. Rows are in one of three states:
 * {@code READY} (queued), {@code LEASED} (in flight, invisible until {@code VISIBLE_AT}) and {@code
 * PARKED}.
 */
final class AddressRows {
  /**
   * How long one of these statements may wait, in seconds. They serve operators (the snapshot, the
   * console's lists, "where is my message?"): on a database that accepts connections and never
   * answers (a lock held, a stalled disk) they fail after this, and the snapshot reports the
   * provider down, instead of holding the console's request thread for as long as the lock lasts.
   */
  static final int READ_BOUND_SECONDS = 5;

  static final String READY = "READY";
  static final String LEASED = "LEASED";
  static final String PARKED = "PARKED";

  private static PreparedStatement bounded(PreparedStatement statement) throws SQLException {
    statement.setQueryTimeout(READ_BOUND_SECONDS);
    return statement;
  }

  /** Counts of one address: queued, in flight, parked, overdue in flight, last update (millis). */
  /**
   * @param oldestReadyPosted when the oldest READY row was posted (epoch ms, from its {@code SEQ},
   *     the write's clock in microseconds; a retry keeps it), 0 when none is ready
   */
  record Counts(
      long ready, long leased, long parked, long overdue, long lastUpdate, long oldestReadyPosted) {
    static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0);

    boolean any() {
      return ready + leased + parked > 0;
    }
  }

  private final JdbcSql db;

  AddressRows(JdbcSql db) {
    this.db = db;
  }

  /** The messages a {@code SELECT MESSAGE ...} statement finds, at most {@code limit}. */
  List<MailMessage> messages(String select, int limit, Object... values) {
    return db.run(
        c -> {
          try (PreparedStatement statement = bounded(c.prepareStatement(select))) {
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

  /** Whether a row of copy {@code key} exists, in any state. */
  boolean holds(String key) {
    return db.run(
        c -> {
          try (PreparedStatement select =
              bounded(c.prepareStatement("SELECT 1 FROM MBX_QUEUE WHERE COPY_KEY = ?"))) {
            bind(select, key);
            try (ResultSet result = select.executeQuery()) {
              return result.next();
            }
          }
        });
  }

  List<MailMessage> inState(MailAddress address, String state, int limit) {
    return messages(
        "SELECT MESSAGE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = ? ORDER BY SEQ",
        limit,
        hash(address),
        state);
  }

  List<LocatedCopy> locate(String messageId) {
    return db.run(
        c -> {
          try (PreparedStatement select =
              bounded(
                  c.prepareStatement(
                      "SELECT ADDRESS, COPY_KEY, LEASE_ID, STATE FROM MBX_QUEUE WHERE MESSAGE_ID = ? ORDER BY ADDRESS, SEQ"))) {
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

  /** Leased rows of the address, oldest first; the hand-out time is the row's last update. */
  List<InFlightCopy> inFlight(MailAddress address, int limit) {
    return db.run(
        c -> {
          try (PreparedStatement select =
              bounded(
                  c.prepareStatement(
                      "SELECT COPY_KEY, MESSAGE_ID, LEASE_ID, UPDATED_AT, VISIBLE_AT FROM MBX_QUEUE"
                          + " WHERE ADDRESS_HASH = ? AND STATE = 'LEASED' ORDER BY SEQ"))) {
            select.setString(1, hash(address));
            select.setMaxRows(limit);
            List<InFlightCopy> copies = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                long visibleAt = rows.getLong(5);
                copies.add(
                    new InFlightCopy(
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

  /** Removes rows of {@code address} in {@code state}: the one with {@code key}, or all. */
  int remove(MailAddress address, String state, String key) {
    return key == null
        ? db.run(
            c ->
                update(
                    c,
                    "DELETE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = ?",
                    hash(address),
                    state))
        : db.run(
            c ->
                update(
                    c,
                    "DELETE FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = ? AND COPY_KEY = ?",
                    hash(address),
                    state,
                    key));
  }

  /** Puts the leased rows of {@code address} whose lease ended back in the queue. */
  long reclaimExpired(MailAddress address, long now) {
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

  Counts counts(MailAddress address, long now) {
    long[] counts = new long[6];
    db.run(
        c -> {
          try (PreparedStatement select =
              bounded(
                  c.prepareStatement(
                      "SELECT STATE, COUNT(*), MAX(UPDATED_AT), SUM(CASE WHEN VISIBLE_AT <= ? THEN 1 ELSE 0 END),"
                          + " MIN(SEQ) FROM MBX_QUEUE WHERE ADDRESS_HASH = ? GROUP BY STATE"))) {
            bind(select, now, hash(address));
            try (ResultSet result = select.executeQuery()) {
              while (result.next()) {
                add(counts, result.getString(1), result, 2);
              }
            }
            return null;
          }
        });
    return new Counts(counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]);
  }

  /**
   * The counts of every address with a row, in one pass over the table (a snapshot of 10,000
   * addresses asked one query per address before: docs/benchmarks.md, "Scale of status").
   */
  Map<MailAddress, Counts> allCounts(long now) {
    Map<String, long[]> byAddress = new HashMap<>();
    db.run(
        c -> {
          try (PreparedStatement select =
              bounded(
                  c.prepareStatement(
                      "SELECT ADDRESS, STATE, COUNT(*), MAX(UPDATED_AT), SUM(CASE WHEN VISIBLE_AT <= ?"
                          + " THEN 1 ELSE 0 END), MIN(SEQ) FROM MBX_QUEUE GROUP BY ADDRESS, STATE"))) {
            bind(select, now);
            try (ResultSet result = select.executeQuery()) {
              while (result.next()) {
                long[] counts = byAddress.computeIfAbsent(result.getString(1), a -> new long[6]);
                add(counts, result.getString(2), result, 3);
              }
            }
            return null;
          }
        });
    // Two stored spellings of one address (written before its canonical form) add up.
    Map<MailAddress, Counts> all = new HashMap<>();
    byAddress.forEach(
        (address, c) ->
            all.merge(
                MailAddress.parse(address),
                new Counts(c[0], c[1], c[2], c[3], c[4], c[5]),
                (a, b) ->
                    new Counts(
                        a.ready() + b.ready(),
                        a.leased() + b.leased(),
                        a.parked() + b.parked(),
                        a.overdue() + b.overdue(),
                        Math.max(a.lastUpdate(), b.lastUpdate()),
                        a.ready() == 0
                            ? b.oldestReadyPosted()
                            : b.ready() == 0
                                ? a.oldestReadyPosted()
                                : Math.min(a.oldestReadyPosted(), b.oldestReadyPosted()))));
    return all;
  }

  /**
   * Adds one (state, count, last update, overdue, lowest sequence) row, read from column {@code
   * from} on.
   */
  private static void add(long[] counts, String state, ResultSet result, int from)
      throws SQLException {
    long count = result.getLong(from);
    counts[4] = Math.max(counts[4], result.getLong(from + 1));
    if (READY.equals(state)) {
      counts[0] = count;
      counts[5] = result.getLong(from + 3) / 1000; // SEQ: the write's clock in microseconds
    } else if (LEASED.equals(state)) {
      counts[1] = count;
      counts[3] = result.getLong(from + 2);
    } else if (PARKED.equals(state)) {
      counts[2] = count;
    }
  }

  /**
   * Adds {@code <prefix>rows.<STATE>} (LEASED rows are the lease table) and the dedupe window's
   * {@code <prefix>seen} (all rows) and {@code <prefix>seenLive} (still inside the window).
   */
  void tableSizes(String prefix, long now, Map<String, Long> sizes) {
    db.run(
        c -> {
          for (String state : List.of(READY, LEASED, PARKED)) {
            sizes.put(prefix + "rows." + state, 0L);
          }
          try (PreparedStatement rows =
                  bounded(
                      c.prepareStatement("SELECT STATE, COUNT(*) FROM MBX_QUEUE GROUP BY STATE"));
              ResultSet result = rows.executeQuery()) {
            while (result.next()) {
              sizes.put(prefix + "rows." + result.getString(1), result.getLong(2));
            }
          }
          try (PreparedStatement seen =
              bounded(
                  c.prepareStatement(
                      "SELECT COUNT(*), COALESCE(SUM(CASE WHEN SEEN_UNTIL > ? THEN 1 ELSE 0 END), 0)"
                          + " FROM MBX_QUEUE_SEEN"))) {
            bind(seen, now);
            try (ResultSet result = seen.executeQuery()) {
              result.next();
              sizes.put(prefix + "seen", result.getLong(1));
              sizes.put(prefix + "seenLive", result.getLong(2));
            }
          }
          return null;
        });
  }
}
