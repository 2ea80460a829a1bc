package io.mailbox.connector.jca.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.jca.MailboxResourceAdapter;
import io.mailbox.connector.jca.testsupport.FakeBootstrapContext;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionalPostTest {
  private static final String INBOX = "mem:billing@shop/placed";

  private MailboxResourceAdapter adapter;
  private MailboxManagedConnection managed;
  private MailboxConnection connection;

  @BeforeEach
  void connect(@TempDir java.nio.file.Path prepareLog) throws Exception {
    adapter = new MailboxResourceAdapter();
    adapter.setMemoryScope("tx-test-" + java.util.UUID.randomUUID());
    adapter.setPrepareLogDirectory(prepareLog.toString());
    adapter.start(new FakeBootstrapContext());
    MailboxManagedConnectionFactory factory = new MailboxManagedConnectionFactory();
    factory.setResourceAdapter(adapter);
    managed = (MailboxManagedConnection) factory.createManagedConnection(null, null);
    connection = (MailboxConnection) managed.getConnection(null, null);
  }

  @AfterEach
  void stop() {
    adapter.stop();
  }

  private long unread() {
    return adapter.kernel().status(INBOX).unreadCount();
  }

  private static MailMessage letter() {
    return MailMessage.to(INBOX).body("{}").build();
  }

  @Test
  void outsideATransactionAPostIsDeliveredAtOnce() {
    connection.post(letter());

    assertThat(unread()).isEqualTo(1);
  }

  @Test
  void xaPostsAreHeldUntilTwoPhaseCommit() throws Exception {
    XAResource xa = managed.getXAResource();
    Xid xid = new TestXid(1);
    xa.start(xid, XAResource.TMNOFLAGS);
    connection.post(letter());
    connection.post(letter());
    xa.end(xid, XAResource.TMSUCCESS);

    assertThat(unread()).as("held while the transaction is open").isZero();
    assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
    assertThat(unread()).as("still held after prepare").isZero();

    xa.commit(xid, false);
    assertThat(unread()).isEqualTo(2);
  }

  @Test
  void postsIssuedTogetherAreHeldTogetherAndDeliveredInOrderAtCommit() throws Exception {
    XAResource xa = managed.getXAResource();
    Xid xid = new TestXid(4);
    xa.start(xid, XAResource.TMNOFLAGS);
    java.util.List<String> ids =
        connection.postAll(
            java.util.List.of(
                MailMessage.to(INBOX).id("first").body("{}").build(),
                MailMessage.to(INBOX).id("second").body("{}").build()));
    xa.end(xid, XAResource.TMSUCCESS);

    assertThat(ids).containsExactly("first", "second");
    assertThat(unread()).as("held while the transaction is open").isZero();
    xa.commit(xid, true);
    assertThat(adapter.kernel().fetch(INBOX).orElseThrow().id()).isEqualTo("first");
    assertThat(adapter.kernel().fetch(INBOX).orElseThrow().id()).isEqualTo("second");
  }

  @Test
  void postsIssuedTogetherWithAnUnknownSchemeAreRefusedBeforeAnyIsPostedOrHeld() {
    assertThatThrownBy(
            () ->
                connection.postAll(
                    java.util.List.of(letter(), MailMessage.to("amqp:x@y/z").body("{}").build())))
        .hasMessageStartingWith("MBX-1003");
    assertThat(unread()).isZero();
  }

  @Test
  void onePhaseCommitDeliversToo() throws Exception {
    XAResource xa = managed.getXAResource();
    Xid xid = new TestXid(2);
    xa.start(xid, XAResource.TMNOFLAGS);
    connection.post(letter());
    xa.end(xid, XAResource.TMSUCCESS);

    xa.commit(xid, true);

    assertThat(unread()).isEqualTo(1);
  }

  @Test
  void xaRollbackDeliversNothingAndLaterPostsGoStraightThrough() throws Exception {
    XAResource xa = managed.getXAResource();
    Xid xid = new TestXid(3);
    xa.start(xid, XAResource.TMNOFLAGS);
    connection.post(letter());
    xa.end(xid, XAResource.TMFAIL);

    xa.rollback(xid);
    assertThat(unread()).isZero();

    connection.post(letter());
    assertThat(unread()).isEqualTo(1);
  }

  @Test
  void aBranchWithNothingHeldVotesReadOnly() throws Exception {
    XAResource xa = managed.getXAResource();
    Xid xid = new TestXid(4);
    xa.start(xid, XAResource.TMNOFLAGS);
    xa.end(xid, XAResource.TMSUCCESS);

    assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_RDONLY);
  }

  @Test
  void prepareVotesNoWhenTheAdapterStoppedMeanwhile() throws Exception {
    XAResource xa = managed.getXAResource();
    Xid xid = new TestXid(5);
    xa.start(xid, XAResource.TMNOFLAGS);
    connection.post(letter());
    xa.end(xid, XAResource.TMSUCCESS);
    adapter.kernel().requireProvider("mem").stop(false);

    assertThatThrownBy(() -> xa.prepare(xid))
        .isInstanceOf(XAException.class)
        .extracting(e -> ((XAException) e).errorCode)
        .isEqualTo(XAException.XA_RBROLLBACK);
  }

  @Test
  void anUnknownXidIsRefused() {
    XAResource xa = managed.getXAResource();

    assertThatThrownBy(() -> xa.commit(new TestXid(9), true))
        .isInstanceOf(XAException.class)
        .extracting(e -> ((XAException) e).errorCode)
        .isEqualTo(XAException.XAER_NOTA);
  }

  @Test
  void localTransactionCommitDeliversAndRollbackDrops() throws Exception {
    managed.getLocalTransaction().begin();
    connection.post(letter());
    managed.getLocalTransaction().rollback();
    assertThat(unread()).isZero();

    managed.getLocalTransaction().begin();
    connection.post(letter());
    assertThat(unread()).isZero();
    managed.getLocalTransaction().commit();
    assertThat(unread()).isEqualTo(1);
  }

  @Test
  void aPostToAnUnknownSchemeFailsBeforeAnythingIsHeld() throws Exception {
    managed.getLocalTransaction().begin();

    assertThatThrownBy(() -> connection.post(MailMessage.to("amqp:a@b").body("").build()))
        .hasMessageStartingWith("MBX-1003");
    assertThat(managed.transactionalPosts().heldCount()).isZero();
  }

  @Test
  void aClosedHandleRefusesEveryCall() {
    connection.close();

    assertThatThrownBy(() -> connection.post(letter())).hasMessageStartingWith("MBX-2002");
    assertThatThrownBy(() -> connection.snapshot()).hasMessageStartingWith("MBX-2002");
  }

  @Test
  void cleanupInvalidatesHandlesTheApplicationStillHolds() throws Exception {
    managed.cleanup();

    assertThatThrownBy(() -> connection.status(INBOX)).hasMessageStartingWith("MBX-2002");
  }

  @Test
  void anUnmanagedFactoryWorksOutsideAServer() throws Exception {
    MailboxManagedConnectionFactory factory = new MailboxManagedConnectionFactory();
    factory.setResourceAdapter(adapter);
    MailboxConnectionFactory connections =
        (MailboxConnectionFactory) factory.createConnectionFactory();

    try (MailboxConnection direct = connections.getConnection()) {
      direct.post(letter());
      assertThat(direct.snapshot().addressCount()).isEqualTo(1);
    }
    assertThat(unread()).isEqualTo(1);
  }

  private record TestXid(int id) implements Xid {
    @Override
    public int getFormatId() {
      return 4711;
    }

    @Override
    public byte[] getGlobalTransactionId() {
      return new byte[] {(byte) id};
    }

    @Override
    public byte[] getBranchQualifier() {
      return new byte[] {1};
    }
  }
}
