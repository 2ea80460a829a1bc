package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailboxException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.LocalTransactionException;
import java.nio.ByteBuffer;
import java.util.UUID;
import javax.transaction.xa.XAException;

/**
 * The resource-local form of {@link MailboxXAResource}, for pools configured as LocalTransaction: a
 * one-phase commit. Posts a provider refuses once the commit is under way go to the prepare log
 * under a branch id of their own and are delivered by the adapter later, as for XA.
 */
final class MailboxLocalTransaction implements LocalTransaction {
  // "MBLT": the format id of the branch ids local commits log their undelivered posts under.
  private static final int LOCAL_FORMAT_ID = 0x4D424C54;

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
    } catch (MailboxException e) {
      connection.transactionalPosts().rollback();
      throw new LocalTransactionException(e.getMessage(), e);
    }
    try {
      connection.prepareLog().commitOnePhase(localBranch(), connection.transactionalPosts().take());
    } catch (XAException | MailboxException e) {
      LocalTransactionException failure =
          new LocalTransactionException("Transactional posts could not be committed", e);
      failure.setErrorCode(e instanceof XAException xa ? String.valueOf(xa.errorCode) : null);
      throw failure;
    }
  }

  @Override
  public void rollback() {
    connection.transactionalPosts().rollback();
  }

  private static BranchId localBranch() {
    UUID id = UUID.randomUUID();
    byte[] gtrid =
        ByteBuffer.allocate(16)
            .putLong(id.getMostSignificantBits())
            .putLong(id.getLeastSignificantBits())
            .array();
    return new BranchId(LOCAL_FORMAT_ID, gtrid, new byte[0]);
  }
}
