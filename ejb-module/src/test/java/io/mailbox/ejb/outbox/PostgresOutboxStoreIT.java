package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.ejb.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The outbox contract on the machine's PostgreSQL (127.0.0.1:5432, database test). */
class PostgresOutboxStoreIT extends OutboxStoreContract {
  private TestDatabase database;

  @Override
  protected TestDatabase openDatabase() {
    database = TestDatabase.postgres();
    return database;
  }

  /**
   * Issue 18, "store calls bounded": a statement the database holds (the table locked by another
   * session) fails after the store bound instead of hanging the relay past its claims' leases.
   */
  @Test
  void aStatementTheDatabaseHoldsFailsWithinTheStoreBound() throws Exception {
    OutboxStore store =
        database.transactional(
            OutboxStore.class, em -> new JpaOutboxQueries(em, Duration.ofSeconds(1)));
    try (Connection lock = database.jdbc()) {
      lock.setAutoCommit(false);
      try (Statement statement = lock.createStatement()) {
        statement.execute("LOCK TABLE MBX_OUTBOX IN ACCESS EXCLUSIVE MODE");
      }
      long started = System.nanoTime();
      assertThatThrownBy(() -> store.page(null, 10)).isNotNull();
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      assertThat(tookMillis).as("failed after the 1 s bound, ms").isBetween(900L, 5_000L);
      lock.rollback();
    }
    assertThat(store.page(null, 10)).as("the table answers again").isNotNull();
  }
}
