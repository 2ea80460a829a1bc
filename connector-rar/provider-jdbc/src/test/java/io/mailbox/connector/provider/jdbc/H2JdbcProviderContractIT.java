package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;

/** {@code jdbc:} keeps the provider contract on H2, with the shipped DDL. */
class H2JdbcProviderContractIT extends ProviderContract {
  @Override
  protected Transport newTransport() {
    return new JdbcProvider(QueueDatabase.h2(), Clock.systemUTC(), new ExecutorScheduler());
  }
}
