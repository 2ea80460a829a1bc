package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.spi.Scheduler;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.Xid;

/**
 * The durable side of posts held by a JTA transaction: what a branch holds when it votes yes in
 * {@code prepare} is written here before the vote, and stays until the transaction manager's
 * decision has been carried out. Commit delivers, then forgets; rollback forgets. Posts a provider
 * refuses at commit stay in the log, marked committed, and a {@link CommittedPostsRetrier} delivers
 * them later: the decision is commit, delivering is the adapter's job from then on.
 *
 * <p>One log per adapter, shared by every connection's {@code XAResource}, so that any of them (a
 * fresh one after a restart included) reports and completes the branches in doubt. One server
 * instance per directory. Format: {@link PrepareLogFormat}; files: {@link PrepareLogFiles}.
 *
 * <p>Delivery is at least once: a crash after the posts were handed over but before the entry was
 * removed hands them over again at the next commit or retry, with the same message ids (a consumer
 * inbox, or a {@code jdbc:} dedupe window, absorbs the copy).
 */
public final class PrepareLog {
  private static final Logger LOG = Logger.getLogger(PrepareLog.class.getName());
  static final Duration FIRST_RETRY = Duration.ofSeconds(1);
  static final Duration MAX_RETRY = Duration.ofMinutes(1);

  private final PrepareLogFiles files;
  private final Supplier<Mailbox> kernel;
  private final CommittedPostsRetrier retrier;
  // Runs a commit's hand-over to completion on a thread without the committing transaction.
  private final Executor offTransaction;
  // Branches whose posts one thread is delivering now; no other thread touches their entries.
  private final Set<BranchId> busy = ConcurrentHashMap.newKeySet();

  PrepareLog(
      Path directory,
      Supplier<Mailbox> kernel,
      Scheduler scheduler,
      Duration firstRetry,
      Duration maxRetry) {
    this(directory, kernel, scheduler, firstRetry, maxRetry, Runnable::run);
  }

  PrepareLog(
      Path directory,
      Supplier<Mailbox> kernel,
      Scheduler scheduler,
      Duration firstRetry,
      Duration maxRetry,
      Executor offTransaction) {
    this.offTransaction = offTransaction;
    this.files = new PrepareLogFiles(directory);
    this.kernel = kernel;
    this.retrier =
        new CommittedPostsRetrier(scheduler, this::deliverCommitted, firstRetry, maxRetry);
  }

  /**
   * Opens the log in {@code directory} (created at the first prepare), reports the branches in
   * doubt and schedules delivery of committed ones. Never fails: an unreadable directory is logged
   * and the adapter starts; a prepare that cannot write then votes to roll back.
   *
   * @param offTransaction runs a task to completion on a thread that is not in the committing
   *     transaction, and returns after it: a commit's posts are handed over there, because the
   *     transaction manager calls {@code commit} on a thread still associated with the transaction
   *     it completes, where a {@code jdbc:} provider's connection would be enlisted into it (Payara
   *     refuses: "Transaction is not active in the current thread")
   */
  public static PrepareLog open(
      Path directory, Supplier<Mailbox> kernel, Scheduler scheduler, Executor offTransaction) {
    PrepareLog log =
        new PrepareLog(directory, kernel, scheduler, FIRST_RETRY, MAX_RETRY, offTransaction);
    log.resume();
    return log;
  }

  public Path directory() {
    return files.directory();
  }

  /** Stops retrying; every entry stays for the next start. */
  public void close() {
    retrier.close();
  }

  void resume() {
    try {
      int torn = files.removeTemporaryFiles();
      if (torn > 0) {
        LOG.info(() -> "Prepare log: removed " + torn + " unfinished write(s) (no vote was cast)");
      }
      List<LoggedBranch> inDoubt = files.list(LoggedBranch.State.PREPARED);
      if (!inDoubt.isEmpty()) {
        LOG.warning(
            () ->
                "Prepare log "
                    + directory()
                    + " holds "
                    + inDoubt.size()
                    + " branch(es) in doubt "
                    + inDoubt.stream().map(b -> b.xid().key()).toList()
                    + ": they wait for the transaction manager's recovery to commit or roll them"
                    + " back (docs/transactions.md)");
      }
      if (!files.list(LoggedBranch.State.COMMITTED).isEmpty()) {
        retrier.wake();
      }
    } catch (IOException e) {
      LOG.log(Level.SEVERE, "Prepare log " + directory() + " cannot be read", e);
    }
  }

  /** Writes the branch's posts down; returns once they are durable. */
  void prepare(Xid xid, List<MailMessage> posts) throws IOException {
    BranchId id = BranchId.of(xid);
    try {
      files.write(new LoggedBranch(id, LoggedBranch.State.PREPARED, posts));
    } catch (IOException e) {
      // The rename may have happened before the directory force failed: the vote will be no, so
      // no entry may claim a yes (recovery would otherwise list a branch that voted to roll back).
      try {
        files.delete(id, LoggedBranch.State.PREPARED);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /**
   * Carries out a commit decision for a logged branch, live or recovered: delivers its posts and
   * forgets it. Returns normally when some posts could not be delivered (they stay in the log,
   * marked committed, for the retrier) and when the branch is already committed.
   *
   * @throws XAException XAER_NOTA when the log holds no such branch; XAER_RMFAIL when the log could
   *     not record what is left (the entry stays prepared, so recovery commits it again)
   */
  void commit(Xid xid) throws XAException {
    BranchId id = BranchId.of(xid);
    if (!busy.add(id)) {
      return; // another thread is delivering this very branch
    }
    try {
      LoggedBranch branch = read(id).orElseThrow(() -> new XAException(XAException.XAER_NOTA));
      if (branch.state() == LoggedBranch.State.COMMITTED) {
        retrier.wake();
        return;
      }
      int delivered = deliverOffTransaction(branch.posts());
      if (delivered == branch.posts().size()) {
        forgetDelivered(id, LoggedBranch.State.PREPARED);
        return;
      }
      try {
        keepForRetry(branch, delivered);
        files.delete(id, LoggedBranch.State.PREPARED);
      } catch (IOException e) {
        throw failure(XAException.XAER_RMFAIL, e);
      }
    } finally {
      busy.remove(id);
    }
  }

  /**
   * Commits a branch that was never prepared (one-phase commit, a local transaction): delivers the
   * posts; what a provider refuses is written to the log as committed for the retrier.
   *
   * @throws XAException XA_RBROLLBACK when nothing was delivered and nothing could be logged (the
   *     branch rolled back); XA_HEURMIX when some were delivered and the rest could not be logged
   */
  void commitOnePhase(Xid xid, List<MailMessage> posts) throws XAException {
    int delivered = deliverOffTransaction(posts);
    if (delivered == posts.size()) {
      return;
    }
    try {
      keepForRetry(
          new LoggedBranch(BranchId.of(xid), LoggedBranch.State.PREPARED, posts), delivered);
    } catch (IOException e) {
      LOG.log(Level.SEVERE, "Prepare log cannot keep undelivered posts of " + BranchId.of(xid), e);
      throw failure(delivered == 0 ? XAException.XA_RBROLLBACK : XAException.XA_HEURMIX, e);
    }
  }

  /**
   * Carries out a rollback decision: forgets a prepared branch without delivering anything.
   *
   * @throws XAException XAER_NOTA for an unknown branch; XA_HEURCOM for a committed one (its posts
   *     are being delivered); XAER_RMFAIL when the entry could not be removed
   */
  void rollback(Xid xid) throws XAException {
    BranchId id = BranchId.of(xid);
    LoggedBranch branch = read(id).orElseThrow(() -> new XAException(XAException.XAER_NOTA));
    if (branch.state() == LoggedBranch.State.COMMITTED) {
      throw new XAException(XAException.XA_HEURCOM);
    }
    try {
      files.delete(id, LoggedBranch.State.PREPARED);
    } catch (IOException e) {
      throw failure(XAException.XAER_RMFAIL, e);
    }
  }

  /** Whether the log holds the branch (in any state). */
  Optional<LoggedBranch.State> state(Xid xid) throws XAException {
    return read(BranchId.of(xid)).map(LoggedBranch::state);
  }

  /** The branches voted yes whose outcome the log has not been told: the transaction manager's. */
  Xid[] inDoubt() throws XAException {
    try {
      return files.list(LoggedBranch.State.PREPARED).stream()
          .map(LoggedBranch::xid)
          .toArray(Xid[]::new);
    } catch (IOException e) {
      throw failure(XAException.XAER_RMERR, e);
    }
  }

  /** One retry pass: delivers every committed branch it can; true when none is left. */
  boolean deliverCommitted() {
    List<LoggedBranch> committed;
    try {
      committed = files.list(LoggedBranch.State.COMMITTED);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "Prepare log " + directory() + " cannot be read", e);
      return false;
    }
    boolean done = true;
    for (LoggedBranch listed : committed) {
      if (!busy.add(listed.xid())) {
        continue; // its deliverer wakes the retrier again if it fails
      }
      try {
        // Read again under the claim: an earlier pass may have delivered it since the listing.
        Optional<LoggedBranch> branch = files.read(listed.xid());
        if (branch.isEmpty() || branch.get().state() != LoggedBranch.State.COMMITTED) {
          continue;
        }
        int delivered = deliver(branch.get().posts());
        if (delivered == branch.get().posts().size()) {
          forgetDelivered(listed.xid(), LoggedBranch.State.COMMITTED);
        } else {
          done = false;
          if (delivered > 0) {
            keepForRetry(branch.get(), delivered);
          }
        }
      } catch (IOException e) {
        LOG.log(Level.WARNING, "Prepare log entry " + listed.xid() + " cannot be updated", e);
        done = false;
      } finally {
        busy.remove(listed.xid());
      }
    }
    return done;
  }

  /** {@link #deliver} on the off-transaction thread; a refused hand-off delivers nothing. */
  private int deliverOffTransaction(List<MailMessage> posts) {
    AtomicInteger delivered = new AtomicInteger();
    try {
      offTransaction.execute(() -> delivered.set(deliver(posts)));
    } catch (RuntimeException e) {
      LOG.warning(
          () ->
              "Transactional posts not handed over ("
                  + e
                  + "); they stay in the prepare log and are retried");
    }
    return delivered.get();
  }

  /**
   * Hands the posts to the kernel in runs of one scheme, as {@link Mailbox#postAll} does, so that a
   * failure leaves a known prefix delivered; returns how many were handed over.
   */
  private int deliver(List<MailMessage> posts) {
    int delivered = 0;
    try {
      Mailbox mailbox = kernel.get();
      while (delivered < posts.size()) {
        String scheme = posts.get(delivered).to().scheme();
        int end = delivered + 1;
        while (end < posts.size() && posts.get(end).to().scheme().equals(scheme)) {
          end++;
        }
        mailbox.postAll(posts.subList(delivered, end));
        delivered = end;
      }
    } catch (RuntimeException e) {
      int handedOver = delivered;
      LOG.warning(
          () ->
              "Transactional posts not delivered yet ("
                  + handedOver
                  + " of "
                  + posts.size()
                  + " handed over): "
                  + e
                  + "; they stay in the prepare log and are retried");
    }
    return delivered;
  }

  /** Records, durably, that the branch is committed and which of its posts are still owed. */
  private void keepForRetry(LoggedBranch branch, int delivered) throws IOException {
    List<MailMessage> owed =
        new ArrayList<>(branch.posts().subList(delivered, branch.posts().size()));
    files.write(branch.withState(LoggedBranch.State.COMMITTED, owed));
    retrier.wake();
  }

  private void forgetDelivered(BranchId id, LoggedBranch.State state) {
    try {
      files.delete(id, state);
    } catch (IOException e) {
      // Delivered already: the commit stands. The entry makes a later pass or recovery deliver
      // the same messages (same ids) again, which the consumer's inbox absorbs.
      LOG.log(Level.WARNING, "Delivered, but could not remove prepare log entry " + id, e);
    }
  }

  private Optional<LoggedBranch> read(BranchId id) throws XAException {
    try {
      return files.read(id);
    } catch (IOException e) {
      throw failure(XAException.XAER_RMERR, e);
    }
  }

  private static XAException failure(int code, Exception cause) {
    XAException failure = new XAException(code);
    failure.initCause(cause);
    return failure;
  }
}
