package io.mailbox.connector.provider.jdbc;

import static io.mailbox.connector.provider.jdbc.JdbcSql.bind;
import static io.mailbox.connector.provider.jdbc.JdbcSql.hash;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.connector.spi.MessageJson;
import io.mailbox.connector.spi.PublishBound;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Every new row of {@code MBX_QUEUE}: posts (deduped when a window is set) and re-inserted copies
 * (a requeue of a row that is gone, a parked record). Rows written by concurrent callers share a
 * transaction (group commit) unless the caller already holds one; a call returns only once the
 * transaction holding its rows committed.
 */
final class QueueWriter {
  static final Duration DEFAULT_PUBLISH_BOUND = Duration.ofSeconds(15);
  private static final String BOUND_SETTING = "jdbcPublishTimeoutMillis";
  private static final Logger LOG = Logger.getLogger(QueueWriter.class.getName());
  private static final int MAX_GROUP = 500;

  /** One row to write: a post (deduped when a window is set) or a requeued/parked copy. */
  record Row(
      MailAddress topic,
      MailMessage copy,
      String state,
      String leaseId,
      long visibleAt,
      boolean dedupe) {}

  private final JdbcSql db;
  private final DedupeWindow dedupe;
  private final Clock clock;
  private final Consumer<MailAddress> written;
  private final AtomicLong sequence = new AtomicLong();
  private final AtomicLong collapsed = new AtomicLong();
  private volatile GroupCommit<Row, Boolean> groupCommit;
  private volatile Duration publishBound = DEFAULT_PUBLISH_BOUND;

  /**
   * @param written told the address of every row written (the provider remembers active addresses)
   */
  QueueWriter(JdbcSql db, DedupeWindow dedupe, Clock clock, Consumer<MailAddress> written) {
    this.db = db;
    this.dedupe = dedupe;
    this.clock = clock;
    this.written = written;
    this.groupCommit = newGroupCommit();
  }

  /**
   * How long a post's INSERT may wait for the database ({@link Duration#ZERO}: as long as the
   * driver does). JDBC counts a query timeout in whole seconds: rounded up.
   */
  void publishBound(Duration bound) {
    this.publishBound = bound;
  }

  /** Group commit on (the default) or off: off, every call is its own transaction. */
  void groupCommit(boolean on) {
    this.groupCommit = on ? newGroupCommit() : null;
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

  /**
   * Commits one row that is not a new post (never deduped).
   *
   * @return whether it was written
   */
  boolean insert(MailAddress topic, MailMessage copy, String state) {
    return insertAll(List.of(new Row(topic, copy, state, null, 0, false))).get(0);
  }

  /**
   * Commits rows issued together, in order: in the caller's scoped transaction if there is one,
   * else through group commit, else in one transaction of their own. With a dedupe window each
   * post's id is admitted in the same transaction, so a crash never admits an id without its row.
   *
   * @return per row, false when the post was collapsed as a duplicate (logged, never silently)
   */
  List<Boolean> insertAll(List<Row> rows) {
    GroupCommit<Row, Boolean> group = groupCommit;
    List<Boolean> inserted;
    try {
      inserted =
          group == null || db.inTransaction()
              ? db.run(c -> writeRows(c, rows))
              : submit(group, rows);
    } catch (RuntimeException e) {
      if (isQueryTimeout(e)) {
        throw PublishBound.exceeded(rows.get(0).topic(), publishBound, BOUND_SETTING, e);
      }
      throw e;
    }
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      written.accept(row.topic());
      if (!inserted.get(i)) {
        collapsed.incrementAndGet();
        LOG.info(
            () ->
                "Collapsed "
                    + row.copy()
                    + " at "
                    + row.topic()
                    + ": its de-duplication id was posted there within "
                    + dedupe.window());
      }
    }
    return inserted;
  }

  private static List<Boolean> submit(GroupCommit<Row, Boolean> group, List<Row> rows) {
    try {
      return rows.size() == 1 ? List.of(group.submit(rows.get(0))) : group.submitAll(rows);
    } catch (GroupCommit.GroupCommitFailure failure) {
      if (failure.getCause() instanceof SQLException cause) {
        throw failure.committed() == 0
            ? new JdbcQueueException(cause)
            : new JdbcQueueException(cause, failure.committed(), failure.submitted());
      }
      throw failure;
    }
  }

  /** Writes {@code rows} in one transaction on {@code c}, in order (each the next sequence). */
  private List<Boolean> writeRows(Connection c, List<Row> rows) throws SQLException {
    long now = clock.millis();
    List<Boolean> result = new ArrayList<>(rows.size());
    boolean own = !db.isScoped(c); // inside a scoped transaction its owner commits
    if (own) {
      c.setAutoCommit(false);
    }
    try (PreparedStatement statement =
        c.prepareStatement(
            "INSERT INTO MBX_QUEUE (COPY_KEY, ADDRESS_HASH, ADDRESS, SEQ, MESSAGE_ID, MESSAGE, STATE,"
                + " LEASE_ID, VISIBLE_AT, DELIVERIES, UPDATED_AT) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)")) {
      long boundMillis = publishBound.toMillis();
      statement.setQueryTimeout(
          boundMillis == 0 ? 0 : (int) Math.max(1, (boundMillis + 999) / 1000));
      for (Row row : rows) {
        if (row.dedupe() && dedupe.isOn() && !dedupe.admit(c, row.topic(), dedupeKey(row), now)) {
          result.add(false);
          continue;
        }
        bind(
            statement,
            row.copy().sendId().orElseThrow(),
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
        result.add(true);
      }
      statement.executeBatch();
      if (own) {
        c.commit();
      }
      return result;
    } catch (SQLException | RuntimeException e) {
      if (own) {
        c.rollback();
      }
      throw e;
    }
  }

  /** What the dedupe window compares: the post's de-duplication id, else its message id. */
  private static String dedupeKey(Row row) {
    return row.copy().header(PublishOptions.DEDUPLICATION_ID).orElse(row.copy().id());
  }

  /**
   * Whether {@code failure} came from a statement that ran past its query timeout: JDBC's {@link
   * SQLTimeoutException} (H2, MariaDB), or the SQL state of a cancelled statement, which
   * PostgreSQL's driver (57014) and MariaDB's server (70100) report instead.
   */
  static boolean isQueryTimeout(Throwable failure) {
    return PublishBound.hasCause(
        failure,
        cause ->
            cause instanceof SQLTimeoutException
                || (cause instanceof SQLException sql
                    && ("57014".equals(sql.getSQLState()) || "70100".equals(sql.getSQLState()))));
  }

  /** Write order: microseconds of the clock, never going backwards within the process. */
  private long nextSequence() {
    long micros = clock.millis() * 1000;
    return sequence.accumulateAndGet(micros, (last, candidate) -> Math.max(last + 1, candidate));
  }

  /** Posts collapsed as duplicates since start (process-wide for this provider). */
  long collapsed() {
    return collapsed.get();
  }

  /** The group commit's figures, or null when it is off. */
  GroupCommit<Row, Boolean> groupCommitFigures() {
    return groupCommit;
  }
}
