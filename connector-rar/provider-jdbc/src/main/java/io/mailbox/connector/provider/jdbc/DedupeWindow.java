package io.mailbox.connector.provider.jdbc;

import static io.mailbox.connector.provider.jdbc.JdbcSql.hash;
import static io.mailbox.connector.provider.jdbc.JdbcSql.update;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.Scheduler;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * The {@code jdbc:} dedupe window: a post whose message id its address saw within the window is
 * collapsed. Sightings live in {@code MBX_QUEUE_SEEN} (so the window survives restarts) and are
 * admitted in the transaction of the row they belong to; expired ones are deleted every window.
 */
final class DedupeWindow {
  private static final Logger LOG = Logger.getLogger(DedupeWindow.class.getName());

  private final JdbcSql db;
  private final Clock clock;
  private final Scheduler scheduler;
  private final BooleanSupplier started;
  private volatile Duration window = Duration.ZERO;
  private Scheduler.Cancellable sweep; // guarded by this
  private long run; // guarded by this; a stop ends the run, so a late sweep stops itself

  DedupeWindow(JdbcSql db, Clock clock, Scheduler scheduler, BooleanSupplier started) {
    this.db = db;
    this.clock = clock;
    this.scheduler = scheduler;
    this.started = started;
  }

  Duration window() {
    return window;
  }

  boolean isOn() {
    return !window.isZero();
  }

  /** Sets the window ({@link Duration#ZERO}: off) and, on a running provider, starts sweeping. */
  void set(Duration window) {
    if (window == null || window.isNegative()) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY, "The dedupe window must be zero (off) or positive.");
    }
    this.window = window;
    startSweeping(false);
  }

  /**
   * Deletes sightings whose window ended, every window (at least 1 s, at most 1 min) while the
   * window is on. Without it, {@code MBX_QUEUE_SEEN} kept one row per message id forever (the soak:
   * 1,020,000 rows after 1,000,000 messages). Safe beside {@link #admit}: a sighting revived by its
   * UPDATE is no longer expired when the DELETE re-checks it, and one deleted first is simply
   * inserted again.
   *
   * @param starting the provider is starting (it does not count as started yet)
   */
  synchronized void startSweeping(boolean starting) {
    if (sweep == null && (starting || started.getAsBoolean()) && isOn()) {
      long current = run;
      sweep = scheduler.schedule(sweepInterval(), () -> sweepExpired(current));
    }
  }

  /** Stops sweeping; a sweep already running finishes and schedules nothing. */
  synchronized void stop() {
    if (sweep != null) {
      sweep.cancel();
      sweep = null;
    }
    run++;
  }

  private Duration sweepInterval() {
    Duration second = Duration.ofSeconds(1);
    Duration minute = Duration.ofMinutes(1);
    return window.compareTo(second) < 0 ? second : window.compareTo(minute) > 0 ? minute : window;
  }

  private void sweepExpired(long sweepRun) {
    try {
      long now = clock.millis();
      db.run(c -> update(c, "DELETE FROM MBX_QUEUE_SEEN WHERE SEEN_UNTIL <= ?", now));
    } catch (RuntimeException e) {
      // The database may be briefly away; the next round deletes what this one could not.
      LOG.warning(() -> "Could not delete expired jdbc: dedupe sightings: " + e.getMessage());
    } finally {
      synchronized (this) {
        // A stop (and start) while this sweep ran began another run: leave its handle alone.
        if (sweepRun == run) {
          sweep = null;
          startSweeping(false);
        }
      }
    }
  }

  /**
   * Records a sighting of {@code id} at {@code topic}, in the transaction of {@code c}; false when
   * a live sighting exists (a duplicate).
   */
  boolean admit(Connection c, MailAddress topic, String id, long now) throws SQLException {
    long until = now + window.toMillis();
    if (update(
            c,
            "UPDATE MBX_QUEUE_SEEN SET SEEN_UNTIL = ? WHERE ADDRESS_HASH = ? AND MESSAGE_ID = ? AND SEEN_UNTIL <= ?",
            until,
            hash(topic),
            id,
            now)
        == 1) {
      return true; // an expired sighting: outside the window, a new message
    }
    Savepoint beforeInsert = c.setSavepoint();
    try {
      update(
          c,
          "INSERT INTO MBX_QUEUE_SEEN (ADDRESS_HASH, MESSAGE_ID, SEEN_UNTIL) VALUES (?, ?, ?)",
          hash(topic),
          id,
          until);
      return true;
    } catch (SQLException e) {
      if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
        throw e;
      }
      c.rollback(beforeInsert); // a live sighting: the key exists
      return false;
    }
  }
}
