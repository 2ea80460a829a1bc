package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.api.MailAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * How the {@code jdbc:} provider talks to its database: one statement in auto-commit, or several in
 * one transaction scoped to the calling thread ({@link #inOneTransaction}); what must wait for that
 * transaction's commit ({@link #afterCommit}). Per provider instance: another provider on the same
 * thread keeps its own scope.
 */
final class JdbcSql {

  /** Work on a connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  // Every statement keys on the address hash; an application uses few addresses, so remember them
  // (bounded, in case addresses are minted per request).
  private static final Map<MailAddress, String> HASHES = new ConcurrentHashMap<>();

  private final DataSource dataSource;
  // The connection of a transaction spanning several statements of this provider, if any.
  private final ThreadLocal<Connection> scoped = new ThreadLocal<>();
  private final ThreadLocal<List<Runnable>> afterCommit = new ThreadLocal<>();

  JdbcSql(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** A new connection of the provider's DataSource, for work that manages its own transaction. */
  Connection connection() throws SQLException {
    return dataSource.getConnection();
  }

  /** Runs {@code work} in the thread's scoped transaction, or alone in auto-commit. */
  <T> T run(Work<T> work) {
    Connection connection = scoped.get();
    try {
      if (connection != null) {
        return work.run(connection); // part of the caller's transaction; it commits or rolls back
      }
      try (Connection own = dataSource.getConnection()) {
        own.setAutoCommit(true);
        return work.run(own);
      }
    } catch (SQLException e) {
      throw new JdbcQueueException(e);
    }
  }

  /**
   * Runs {@code work} so that every statement it makes through {@link #run} is one transaction;
   * re-entrant (an inner call joins the outer transaction). What {@link #afterCommit} is given
   * meanwhile runs after the commit, so nobody is handed a row that could still roll back.
   */
  void inOneTransaction(Runnable work) {
    if (scoped.get() != null) {
      work.run();
      return;
    }
    List<Runnable> committed = new ArrayList<>();
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      scoped.set(connection);
      afterCommit.set(committed);
      try {
        work.run();
        connection.commit();
      } catch (SQLException | RuntimeException | Error e) {
        connection.rollback();
        throw e;
      } finally {
        scoped.remove();
        afterCommit.remove();
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new JdbcQueueException(e);
    }
    committed.forEach(Runnable::run);
  }

  /** Whether this thread is inside {@link #inOneTransaction}. */
  boolean inTransaction() {
    return scoped.get() != null;
  }

  /** Whether {@code c} is this thread's scoped transaction (its owner commits it). */
  boolean isScoped(Connection c) {
    return scoped.get() == c;
  }

  /** Runs {@code task} once this thread's scoped transaction committed, or now without one. */
  void afterCommit(Runnable task) {
    List<Runnable> pending = afterCommit.get();
    if (pending != null) {
      pending.add(task);
    } else {
      task.run();
    }
  }

  static int update(Connection c, String sql, Object... values) throws SQLException {
    try (PreparedStatement statement = c.prepareStatement(sql)) {
      bind(statement, values);
      return statement.executeUpdate();
    }
  }

  static void bind(PreparedStatement statement, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      statement.setObject(i + 1, values[i]);
    }
  }

  /** The SHA-256 of an address, hex: the key every statement uses. */
  static String hash(MailAddress address) {
    if (HASHES.size() > 10_000) {
      HASHES.clear();
    }
    return HASHES.computeIfAbsent(address, JdbcSql::sha256);
  }

  /** How many address hashes are remembered (bookkeeping: bounded at 10,000). */
  static int knownHashes() {
    return HASHES.size();
  }

  private static String sha256(MailAddress address) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(address.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
