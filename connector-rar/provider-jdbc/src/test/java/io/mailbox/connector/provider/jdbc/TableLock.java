package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.tck.PublishContract.Unanswering;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * A database that stops answering the queue's writers: {@code MBX_QUEUE} locked by a connection of
 * the test's own (every INSERT waits for it) until released. Every connection stays open.
 */
final class TableLock implements AutoCloseable {
  private final DataSource dataSource;
  private final String take;
  private final String release;
  private Connection holder;

  private TableLock(DataSource dataSource, String take, String release) {
    this.dataSource = dataSource;
    this.take = take;
    this.release = release;
  }

  /** PostgreSQL: an ACCESS EXCLUSIVE lock in an open transaction, released by its rollback. */
  static TableLock postgres(DataSource dataSource) {
    return new TableLock(dataSource, "LOCK TABLE MBX_QUEUE IN ACCESS EXCLUSIVE MODE", null);
  }

  /** MariaDB: LOCK TABLES ... WRITE, released by UNLOCK TABLES. */
  static TableLock mariadb(DataSource dataSource) {
    return new TableLock(dataSource, "LOCK TABLES MBX_QUEUE WRITE", "UNLOCK TABLES");
  }

  /**
   * The conformance kit's publish-bound fixture on this lock's database: a started {@code jdbc:}
   * provider with a 1 s bound, whose table this lock makes stop answering.
   */
  Unanswering fixture() {
    Duration bound = Duration.ofSeconds(1);
    MailboxProvider bounded =
        MailboxProvider.of(
            new JdbcProvider(dataSource, Clock.systemUTC(), new ExecutorScheduler())
                .withPublishTimeout(bound));
    bounded.start();
    return Unanswering.of(bounded, bound, this::take, this::release, this::close);
  }

  void take() throws SQLException {
    holder = dataSource.getConnection();
    holder.setAutoCommit(release != null);
    try (Statement statement = holder.createStatement()) {
      statement.execute(take);
    }
  }

  void release() throws SQLException {
    if (holder == null) {
      return;
    }
    try {
      if (release == null) {
        holder.rollback();
      } else {
        try (Statement statement = holder.createStatement()) {
          statement.execute(release);
        }
      }
    } finally {
      holder.close();
      holder = null;
    }
  }

  @Override
  public void close() throws SQLException {
    release();
  }
}
