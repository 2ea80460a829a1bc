package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * Enlists a connection's posts in a JTA transaction. Until {@link #prepare} they are held in
 * memory; a yes vote writes them to the adapter's {@link PrepareLog} first, so that from then on
 * the log, not this object, is the truth: {@link #commit} delivers the logged posts then forgets
 * them, {@link #rollback} forgets them, and {@link #recover} on any instance (a fresh one after a
 * restart) reports the branches still in doubt, which {@code commit} and {@code rollback} then
 * complete by Xid.
 *
 * <p>A provider that refuses at commit does not make the commit fail: the posts stay in the log,
 * marked committed, and the adapter delivers them when the provider takes them again. Nothing is
 * ever reported as a heuristic outcome unless the log itself cannot be written.
 */
final class MailboxXAResource implements XAResource {
  private static final Logger LOG = Logger.getLogger(MailboxXAResource.class.getName());

  private final MailboxManagedConnection connection;
  // The live branch of this connection, and whether it voted yes (its posts are in the log then).
  private Xid current;
  private boolean prepared;
  private int timeoutSeconds;

  MailboxXAResource(MailboxManagedConnection connection) {
    this.connection = connection;
  }

  @Override
  public synchronized void start(Xid xid, int flags) throws XAException {
    if (flags == TMNOFLAGS && current != null && !BranchId.same(current, xid)) {
      throw new XAException(XAException.XAER_PROTO);
    }
    current = xid;
    connection.transactionalPosts().begin();
  }

  @Override
  public void end(Xid xid, int flags) {
    // Posts stay held until prepare, commit or rollback; end only closes the work on this branch.
  }

  @Override
  public int prepare(Xid xid) throws XAException {
    requireCurrent(xid);
    if (connection.transactionalPosts().heldCount() == 0) {
      // Nothing to deliver: vote read-only, write nothing; the manager will not call commit.
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
    List<MailMessage> posts = connection.transactionalPosts().take();
    try {
      // The vote is a promise to deliver whatever happens to this process: on disk first.
      log().prepare(xid, posts);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "Voting to roll back: the prepare log cannot be written", e);
      finish();
      XAException vote = new XAException(XAException.XA_RBROLLBACK);
      vote.initCause(e);
      throw vote;
    }
    synchronized (this) {
      prepared = true;
    }
    return XA_OK;
  }

  @Override
  public void commit(Xid xid, boolean onePhase) throws XAException {
    if (!isCurrent(xid)) {
      if (onePhase) {
        // Only the live branch can commit in one phase; a logged one went through prepare.
        throw new XAException(
            log().state(xid).isPresent() ? XAException.XAER_PROTO : XAException.XAER_NOTA);
      }
      log().commit(xid); // a recovered branch: deliver then forget (XAER_NOTA when unknown)
      return;
    }
    try {
      if (isPrepared()) {
        log().commit(xid);
        return;
      }
      if (!onePhase) {
        throw new XAException(XAException.XAER_PROTO); // two-phase commit without prepare
      }
      try {
        connection.checkDeliverable();
      } catch (MailboxException e) {
        connection.transactionalPosts().rollback();
        XAException failure = new XAException(XAException.XA_RBROLLBACK);
        failure.initCause(e);
        throw failure;
      }
      log().commitOnePhase(xid, connection.transactionalPosts().take());
    } finally {
      finish();
    }
  }

  @Override
  public void rollback(Xid xid) throws XAException {
    if (!isCurrent(xid)) {
      log().rollback(xid); // a recovered branch: discard then forget (XAER_NOTA when unknown)
      return;
    }
    connection.transactionalPosts().rollback();
    try {
      if (isPrepared()) {
        log().rollback(xid);
      }
    } finally {
      finish();
    }
  }

  /**
   * Returns every branch of this adapter in doubt (voted yes, outcome not yet received) on a scan
   * start, read from the prepare log; nothing on the other calls of the same scan.
   */
  @Override
  public Xid[] recover(int flag) throws XAException {
    if ((flag & ~(TMSTARTRSCAN | TMENDRSCAN)) != 0) {
      throw new XAException(XAException.XAER_INVAL);
    }
    return (flag & TMSTARTRSCAN) != 0 ? log().inDoubt() : new Xid[0];
  }

  /**
   * The adapter never completes a branch on its own (no heuristic decisions), so there is nothing
   * to forget but this connection's association with its live branch.
   *
   * @throws XAException XAER_NOTA for a branch the log does not hold; XAER_PROTO for one still in
   *     doubt
   */
  @Override
  public void forget(Xid xid) throws XAException {
    if (isCurrent(xid)) {
      finish();
      return;
    }
    LoggedBranch.State state =
        log().state(xid).orElseThrow(() -> new XAException(XAException.XAER_NOTA));
    if (state == LoggedBranch.State.PREPARED) {
      throw new XAException(XAException.XAER_PROTO);
    }
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

  private PrepareLog log() throws XAException {
    try {
      return connection.prepareLog();
    } catch (MailboxException e) {
      XAException failure = new XAException(XAException.XAER_RMFAIL); // adapter not started
      failure.initCause(e);
      throw failure;
    }
  }

  private synchronized boolean isCurrent(Xid xid) {
    return BranchId.same(current, xid);
  }

  private synchronized boolean isPrepared() {
    return prepared;
  }

  private void requireCurrent(Xid xid) throws XAException {
    if (!isCurrent(xid)) {
      throw new XAException(XAException.XAER_NOTA);
    }
  }

  private synchronized void finish() {
    current = null;
    prepared = false;
  }
}
