package io.mailbox.ejb.inbox;

import io.mailbox.ejb.testsupport.TestDatabase;

/** The inbox contract on Postgres. */
class PostgresInboxIT extends InboxContract {
  @Override
  protected TestDatabase openDatabase() {
    return TestDatabase.postgres();
  }
}
