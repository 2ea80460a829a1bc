package io.mailbox.ejb.inbox;

import io.mailbox.ejb.testsupport.TestDatabase;

/** The inbox contract on MariaDb. */
class MariaDbInboxIT extends InboxContract {
  @Override
  protected TestDatabase openDatabase() {
    return TestDatabase.mariadb();
  }
}
