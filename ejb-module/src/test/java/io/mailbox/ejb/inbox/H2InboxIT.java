package io.mailbox.ejb.inbox;

import io.mailbox.ejb.testsupport.TestDatabase;

/** The inbox contract on H2. */
class H2InboxIT extends InboxContract {
  @Override
  protected TestDatabase openDatabase() {
    return TestDatabase.h2("inbox");
  }
}
