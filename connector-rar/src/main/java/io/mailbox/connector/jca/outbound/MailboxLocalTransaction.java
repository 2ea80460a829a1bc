package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailboxException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.LocalTransactionException;

/**
 * The resource-local form of {@link MailboxXAResource}, for pools configured as LocalTransaction.
 */
final class MailboxLocalTransaction implements LocalTransaction {
  private final MailboxManagedConnection connection;

  MailboxLocalTransaction(MailboxManagedConnection connection) {
    this.connection = connection;
  }

  @Override
  public void begin() {
    connection.transactionalPosts().begin();
  }

  @Override
  public void commit() throws ResourceException {
    try {
      connection.checkDeliverable();
      connection.deliverHeld();
    } catch (MailboxException e) {
      connection.transactionalPosts().rollback();
      throw new LocalTransactionException(e.getMessage(), e);
    }
  }

  @Override
  public void rollback() {
    connection.transactionalPosts().rollback();
  }
}
