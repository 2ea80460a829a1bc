package io.mailbox.ejb.outbox;

import io.mailbox.ejb.testsupport.TestDatabase;

/** The outbox contract on the machine's PostgreSQL (127.0.0.1:5432, database test). */
class PostgresOutboxStoreIT extends OutboxStoreContract {
  @Override
  protected TestDatabase openDatabase() {
    return TestDatabase.postgres();
  }
}
