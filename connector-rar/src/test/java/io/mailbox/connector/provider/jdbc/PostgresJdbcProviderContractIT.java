package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.kernel.ExecutorScheduler;
import io.mailbox.connector.spi.MailboxProvider;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;

/** {@code jdbc:} keeps the provider contract on Postgres, with the shipped DDL. */
class PostgresJdbcProviderContractIT extends ProviderContract {
  @Override
  protected MailboxProvider newProvider() {
    return new JdbcProvider(QueueDatabase.postgres(), Clock.systemUTC(), new ExecutorScheduler());
  }
}
