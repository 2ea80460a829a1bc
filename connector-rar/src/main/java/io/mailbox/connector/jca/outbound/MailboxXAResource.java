package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailboxException;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * Enlists a connection's posts in a JTA transaction: they are delivered in {@link #commit} and
 * dropped in {@link #rollback}. {@link #prepare} checks that every held post can be delivered (the
 * kernel is running, every scheme has a provider) so that commit does not fail after a yes vote.
 */
final class MailboxXAResource implements XAResource {
  private static final Logger LOG = Logger.getLogger(MailboxXAResource.class.getName());

  private final MailboxManagedConnection connection;
  private Xid current;
  private int timeoutSeconds;

  MailboxXAResource(MailboxManagedConnection connection) {
    this.connection = connection;
  }

  @Override
  public synchronized void start(Xid xid, int flags) throws XAException {
    if (flags == TMNOFLAGS && current != null && !current.equals(xid)) {
      throw new XAException(XAException.XAER_PROTO);
    }
    current = xid;
    connection.transactionalPosts().begin();
  }

  @Override
  public void end(Xid xid, int flags) {
    // Posts stay held until commit or rollback; end only closes the work on this branch.
  }

  @Override
  public int prepare(Xid xid) throws XAException {
    requireCurrent(xid);
    if (connection.transactionalPosts().heldCount() == 0) {
      // Nothing to deliver: vote read-only, and the manager will not call commit.
      finish();
      return XA_RDONLY;
    }
    try {
      connection.checkDeliverable();
    } catch (MailboxException e) {
      LOG.log(Level.WARNING, "Voting to roll back: {0}", e.getMessage());
      rollback(xid);
      throw new XAException(XAException.XA_RBROLLBACK);
    }
    return XA_OK;
  }

  @Override
  public void commit(Xid xid, boolean onePhase) throws XAException {
    requireCurrent(xid);
    try {
      if (onePhase) {
        connection.checkDeliverable();
      }
      connection.deliverHeld();
    } catch (MailboxException e) {
      connection.transactionalPosts().rollback();
      XAException failure =
          new XAException(onePhase ? XAException.XA_RBROLLBACK : XAException.XA_HEURHAZ);
      failure.initCause(e);
      throw failure;
    } finally {
      finish();
    }
  }

  @Override
  public void rollback(Xid xid) throws XAException {
    requireCurrent(xid);
    connection.transactionalPosts().rollback();
    finish();
  }

  @Override
  public Xid[] recover(int flag) {
    // Held posts live in memory only; after a crash there is nothing in doubt to report.
    return new Xid[0];
  }

  @Override
  public void forget(Xid xid) {
    finish();
  }

  @Override
  public boolean isSameRM(XAResource other) {
    // Each physical connection holds its own posts: never let the manager merge two branches.
    return other == this;
  }

  @Override
  public synchronized int getTransactionTimeout() {
    return timeoutSeconds;
  }

  @Override
  public synchronized boolean setTransactionTimeout(int seconds) {
    this.timeoutSeconds = seconds;
    return true;
  }

  private synchronized void requireCurrent(Xid xid) throws XAException {
    if (current == null || !Objects.equals(current, xid)) {
      throw new XAException(XAException.XAER_NOTA);
    }
  }

  private synchronized void finish() {
    current = null;
  }
}
