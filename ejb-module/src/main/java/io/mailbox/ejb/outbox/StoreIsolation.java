package io.mailbox.ejb.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Whether the outbox's database runs at an isolation where the relay's batch statements lock the
 * gaps that application transactions insert rows into.
 *
 * <p>On MariaDB and MySQL (InnoDB) at REPEATABLE READ, their default, a claim or mark-sent of a
 * batch that is large against the table is planned as a scan of the primary key (measured on
 * MariaDB 10.11: 500 ids of 3,000 rows scan, 400 use the ids), and the scan takes next-key locks on
 * every row and gap. An application transaction that inserted a row and inserts another then waits
 * for the relay while the relay waits for its first row: InnoDB undoes one as a deadlock victim,
 * often the application's (seen in the store contract on CI). At READ COMMITTED InnoDB locks no
 * gaps and skips rows not yet committed, so the two never wait on each other. PostgreSQL and H2
 * take no such locks at any level.
 */
public final class StoreIsolation {
  /** The health reason and log word for a database at such an isolation. */
  public static final String CONCERN = "isolation-locks-inserts";

  private StoreIsolation() {}

  /**
   * @param productName {@link java.sql.DatabaseMetaData#getDatabaseProductName()}
   * @param isolation {@link Connection#getTransactionIsolation()}
   */
  static boolean locksInsertGaps(String productName, int isolation) {
    String product = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
    boolean innoDb = product.contains("mariadb") || product.contains("mysql");
    return innoDb && isolation >= Connection.TRANSACTION_REPEATABLE_READ;
  }

  /**
   * Asks one connection of {@code dataSource}: what its pool hands the relay and the application.
   */
  public static boolean locksInsertGaps(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      return locksInsertGaps(
          connection.getMetaData().getDatabaseProductName(), connection.getTransactionIsolation());
    }
  }
}
