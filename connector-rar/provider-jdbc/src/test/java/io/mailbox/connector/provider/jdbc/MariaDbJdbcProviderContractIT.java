package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;

/** {@code jdbc:} keeps the provider contract on MariaDb, with the shipped DDL. */
class MariaDbJdbcProviderContractIT extends ProviderContract {
  @Override
  protected Transport newTransport() {
    return new JdbcProvider(QueueDatabase.mariadb(), Clock.systemUTC(), new ExecutorScheduler());
  }
}
