package io.mailbox.ejb.outbox;

import io.mailbox.ejb.testsupport.TestDatabase;

/** The outbox contract on embedded H2 (the product's default database). */
class H2OutboxStoreIT extends OutboxStoreContract {
  @Override
  protected TestDatabase openDatabase() {
    return TestDatabase.h2("outbox");
  }
}
