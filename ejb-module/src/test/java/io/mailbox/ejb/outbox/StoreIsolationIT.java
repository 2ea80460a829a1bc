package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.testsupport.TestDatabase;
import java.sql.Connection;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.mariadb.jdbc.MariaDbDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/** The relay's isolation check against the machine's real databases, as their pools answer it. */
class StoreIsolationIT {

  @Test
  void mariaDbAtItsDefaultRepeatableReadIsAConcern() throws Exception {
    assertThat(StoreIsolation.locksInsertGaps(mariadb("jdbc:mariadb://127.0.0.1:3306/test")))
        .isTrue();
  }

  @Test
  void mariaDbAtReadCommittedIsNot() throws Exception {
    assertThat(
            StoreIsolation.locksInsertGaps(
                mariadb("jdbc:mariadb://127.0.0.1:3306/test?" + TestDatabase.MARIADB_ISOLATION)))
        .isFalse();
  }

  @Test
  void postgresAndH2AreNeverAConcern() throws Exception {
    PGSimpleDataSource postgres = new PGSimpleDataSource();
    postgres.setUrl("jdbc:postgresql://127.0.0.1:5432/test");
    postgres.setUser("postgres");
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:isolation");

    assertThat(StoreIsolation.locksInsertGaps(postgres)).isFalse();
    assertThat(StoreIsolation.locksInsertGaps(h2)).isFalse();
  }

  @Test
  void onlyInnoDbsAtRepeatableReadOrAboveAre() {
    assertThat(StoreIsolation.locksInsertGaps("MySQL", Connection.TRANSACTION_SERIALIZABLE))
        .isTrue();
    assertThat(StoreIsolation.locksInsertGaps("MariaDB", Connection.TRANSACTION_READ_COMMITTED))
        .isFalse();
    assertThat(StoreIsolation.locksInsertGaps("PostgreSQL", Connection.TRANSACTION_REPEATABLE_READ))
        .isFalse();
    assertThat(StoreIsolation.locksInsertGaps(null, Connection.TRANSACTION_SERIALIZABLE)).isFalse();
  }

  private static MariaDbDataSource mariadb(String url) throws Exception {
    MariaDbDataSource dataSource = new MariaDbDataSource(url);
    dataSource.setUser("root");
    return dataSource;
  }
}
