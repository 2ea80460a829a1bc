package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;
import java.util.Optional;
import javax.sql.DataSource;

/** {@code jdbc:} keeps the provider contract on Postgres, with the shipped DDL. */
class PostgresJdbcProviderContractIT extends ProviderContract {
  private DataSource database;

  @Override
  protected Transport newTransport() {
    database = QueueDatabase.postgres();
    return new JdbcProvider(database, Clock.systemUTC(), new ExecutorScheduler());
  }

  /** The publish-bound case: {@code MBX_QUEUE} locked by a connection of the test's own. */
  @Override
  protected Optional<Unanswering> unanswering() {
    return Optional.of(TableLock.postgres(database).fixture());
  }
}
