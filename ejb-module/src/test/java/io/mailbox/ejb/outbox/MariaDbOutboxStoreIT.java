package io.mailbox.ejb.outbox;

import io.mailbox.ejb.testsupport.TestDatabase;

/** The outbox contract on the machine's MariaDB (127.0.0.1:3306, database test). */
class MariaDbOutboxStoreIT extends OutboxStoreContract {
  @Override
  protected TestDatabase openDatabase() {
    return TestDatabase.mariadb();
  }
}
