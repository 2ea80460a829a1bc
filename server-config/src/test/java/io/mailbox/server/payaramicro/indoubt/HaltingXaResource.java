package io.mailbox.server.payaramicro.indoubt;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A second resource in the transaction that stops the JVM at one step of two-phase commit, the way
 * {@code kill -9} would (no shutdown hook runs): in {@code prepare} (before the manager decided) or
 * in {@code commit} (after it logged the decision). Only for {@code TransactionRecoveryIT}.
 */
final class HaltingXaResource implements XAResource {
  /** Where to stop the JVM. */
  enum HaltAt {
    NOWHERE,
    PREPARE,
    COMMIT
  }

  private final HaltAt haltAt;

  HaltingXaResource(HaltAt haltAt) {
    this.haltAt = haltAt;
  }

  @Override
  public int prepare(Xid xid) {
    haltIf(HaltAt.PREPARE);
    return XA_OK;
  }

  @Override
  public void commit(Xid xid, boolean onePhase) {
    haltIf(HaltAt.COMMIT);
  }

  private void haltIf(HaltAt step) {
    if (haltAt == step) {
      System.out.println("HaltingXaResource: halting the JVM in " + step);
      System.out.flush();
      Runtime.getRuntime().halt(137);
    }
  }

  @Override
  public void rollback(Xid xid) {}

  @Override
  public void start(Xid xid, int flags) {}

  @Override
  public void end(Xid xid, int flags) {}

  @Override
  public void forget(Xid xid) {}

  @Override
  public Xid[] recover(int flag) {
    return new Xid[0];
  }

  @Override
  public boolean isSameRM(XAResource other) {
    return other == this;
  }

  @Override
  public int getTransactionTimeout() {
    return 0;
  }

  @Override
  public boolean setTransactionTimeout(int seconds) throws XAException {
    return false;
  }
}
