package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;

/** {@code jdbc:} keeps the provider contract on Postgres, with the shipped DDL. */
class PostgresJdbcProviderContractIT extends ProviderContract {
  @Override
  protected Transport newTransport() {
    return new JdbcProvider(QueueDatabase.postgres(), Clock.systemUTC(), new ExecutorScheduler());
  }
}
