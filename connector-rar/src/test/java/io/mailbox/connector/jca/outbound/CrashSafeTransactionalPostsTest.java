package io.mailbox.connector.jca.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.jca.MailboxResourceAdapter;
import io.mailbox.connector.jca.testsupport.FakeBootstrapContext;
import io.mailbox.connector.testsupport.Eventually;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.Stream;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Posts held by a JTA transaction survive a crash between the yes vote and the decision, and a
 * provider refusing at commit: the real adapter, the real mem: and file: providers, the real file
 * system. A "crash" is an adapter whose connection is dropped without commit or rollback; a fresh
 * adapter on the same prepare log directory plays the restarted server.
 */
class CrashSafeTransactionalPostsTest {
  private static final String INBOX = "mem:billing@shop/placed";
  // Held strongly: java.util.logging keeps loggers only weakly, and the capture handler hangs here.
  private static final Logger OUTBOUND_LOG = Logger.getLogger("io.mailbox.connector.jca.outbound");

  @TempDir Path logDirectory;
  @TempDir Path mailFolder;
  private final String scope = "crash-safe-" + UUID.randomUUID();
  private final List<MailboxResourceAdapter> adapters = new ArrayList<>();

  @AfterEach
  void stopAdapters() {
    adapters.forEach(MailboxResourceAdapter::stop);
  }

  @Test
  void aBranchPreparedBeforeACrashIsRecoveredByAFreshInstanceAndCommittedExactlyOnce()
      throws Exception {
    MailboxResourceAdapter before = start("mem");
    Xid xid = new TestXid(1);
    List<MailMessage> posts = List.of(letter("order-1", "{\"total\":12}"), letter("order-2", ""));
    prepareHolding(before, xid, posts);

    assertThat(entries()).as("on disk when prepare returned").hasSize(1);
    assertThat(loggedPosts(entries().get(0))).isEqualTo(posts);
    assertThat(unread(before)).as("nothing delivered before the decision").isZero();
    crash(before);

    MailboxResourceAdapter after = start("mem");
    XAResource fresh = connect(after).getXAResource();
    Xid[] inDoubt = fresh.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
    assertThat(inDoubt).hasSize(1);
    assertThat(BranchId.of(inDoubt[0])).isEqualTo(BranchId.of(xid));

    fresh.commit(inDoubt[0], false);

    assertThat(fetchAll(after)).isEqualTo(posts);
    assertThat(entries()).as("delivered, then forgotten").isEmpty();
    assertThat(fresh.recover(XAResource.TMSTARTRSCAN)).isEmpty();
    assertThatThrownBy(() -> fresh.commit(xid, false))
        .isInstanceOf(XAException.class)
        .extracting(e -> ((XAException) e).errorCode)
        .isEqualTo(XAException.XAER_NOTA);
    assertThat(unread(after)).as("a second commit delivers nothing").isZero();
  }

  @Test
  void aBranchPreparedBeforeACrashAndRolledBackAfterwardsDeliversNothing() throws Exception {
    MailboxResourceAdapter before = start("mem");
    Xid xid = new TestXid(2);
    prepareHolding(before, xid, List.of(letter("order-3", "{}")));
    crash(before);

    MailboxResourceAdapter after = start("mem");
    XAResource fresh = connect(after).getXAResource();
    assertThat(fresh.recover(XAResource.TMSTARTRSCAN)).hasSize(1);

    fresh.rollback(new TestXid(2));

    assertThat(entries()).isEmpty();
    assertThat(fresh.recover(XAResource.TMSTARTRSCAN)).isEmpty();
    assertThat(unread(after)).isZero();
    assertThatThrownBy(() -> fresh.rollback(xid))
        .extracting(e -> ((XAException) e).errorCode)
        .isEqualTo(XAException.XAER_NOTA);
  }

  @Test
  void postsAProviderRefusesAtCommitStayInTheLogUntilTheRetrierDeliversThem() throws Exception {
    MailboxResourceAdapter adapter = start("mem");
    MailboxManagedConnection managed = connect(adapter);
    Xid xid = new TestXid(3);
    List<MailMessage> posts = List.of(letter("order-4", "{}"), letter("order-5", "{}"));
    prepareHolding(managed, xid, posts);
    adapter.kernel().requireProvider("mem").stop(false); // the broker goes down after the vote

    managed.getXAResource().commit(xid, false); // returns: the decision is commit

    assertThat(entries()).singleElement().asString().endsWith(".committed");
    assertThat(loggedPosts(entries().get(0))).isEqualTo(posts);
    assertThat(connect(adapter).getXAResource().recover(XAResource.TMSTARTRSCAN))
        .as("committed, so no longer in doubt")
        .isEmpty();

    adapter.kernel().requireProvider("mem").start(); // the broker is back
    Eventually.await("the retrier delivered", Duration.ofSeconds(10), () -> entries().isEmpty());
    assertThat(fetchAll(adapter)).isEqualTo(posts);
    Thread.sleep(1_500); // a later pass, had the entry survived, would deliver again
    assertThat(unread(adapter)).as("delivered once").isZero();
  }

  @Test
  void aCommitThatDeliversOnlyPartOfItsPostsLogsOnlyTheRestAndNeverDuplicatesThePart()
      throws Exception {
    MailboxResourceAdapter adapter = start("mem,file");
    MailboxManagedConnection managed = connect(adapter);
    Xid xid = new TestXid(4);
    MailMessage toMemory = letter("order-6", "{}");
    MailMessage toFiles =
        MailMessage.to("file:ledger@shop/in").id("order-6-ledger").body("{}").build();
    prepareHolding(managed, xid, List.of(toMemory, toFiles));
    adapter.kernel().requireProvider("file").stop(false);

    managed.getXAResource().commit(xid, false);

    assertThat(fetchAll(adapter)).containsExactly(toMemory);
    assertThat(loggedPosts(entries().get(0))).containsExactly(toFiles);
    adapter.kernel().requireProvider("file").start();
    Eventually.await("the retrier delivered", Duration.ofSeconds(10), () -> entries().isEmpty());
    assertThat(adapter.kernel().fetch("file:ledger@shop/in").orElseThrow().id())
        .isEqualTo("order-6-ledger");
    assertThat(unread(adapter)).as("the mem: post was not delivered again").isZero();
  }

  @Test
  void aCorruptEntryIsReportedAndSetAsideWhileOthersAreStillRecovered() throws Exception {
    MailboxResourceAdapter before = start("mem");
    prepareHolding(before, new TestXid(5), List.of(letter("order-7", "{}")));
    prepareHolding(before, new TestXid(6), List.of(letter("order-8", "card 4111-1111")));
    crash(before);
    Path torn = logDirectory.resolve(BranchId.of(new TestXid(6)).key() + ".prepared");
    byte[] whole = Files.readAllBytes(torn);
    Files.write(torn, Arrays.copyOf(whole, whole.length - 7));
    Path garbage = logDirectory.resolve("4711.Bw.AQ.prepared");
    Files.writeString(garbage, "secret body, not an entry");
    Files.writeString(logDirectory.resolve(".tmp-" + UUID.randomUUID()), "half a wri");

    List<String> logged = new ArrayList<>();
    Handler capture = capture(logged);
    Xid[] inDoubt;
    try {
      MailboxResourceAdapter after = start("mem");
      inDoubt = connect(after).getXAResource().recover(XAResource.TMSTARTRSCAN);
    } finally {
      OUTBOUND_LOG.removeHandler(capture);
    }

    assertThat(Stream.of(inDoubt).map(BranchId::of)).containsExactly(BranchId.of(new TestXid(5)));
    Path corrupt = logDirectory.resolve(PrepareLogFiles.CORRUPT_FOLDER);
    assertThat(Files.readAllBytes(corrupt.resolve(torn.getFileName())))
        .as("kept aside unchanged")
        .isEqualTo(Arrays.copyOf(whole, whole.length - 7));
    assertThat(corrupt.resolve(garbage.getFileName())).exists();
    assertThat(entries()).as("the torn temporary file is gone, the good entry stays").hasSize(1);
    assertThat(logged)
        .anySatisfy(line -> assertThat(line).contains(torn.getFileName().toString(), "torn"))
        .anySatisfy(line -> assertThat(line).contains(garbage.getFileName().toString()))
        .noneSatisfy(line -> assertThat(line).containsAnyOf("4111", "secret"));
  }

  @Test
  void aBranchWithNothingHeldVotesReadOnlyAndWritesNothing() throws Exception {
    MailboxResourceAdapter adapter = start("mem");
    XAResource xa = connect(adapter).getXAResource();
    Xid xid = new TestXid(7);
    xa.start(xid, XAResource.TMNOFLAGS);
    xa.end(xid, XAResource.TMSUCCESS);

    assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_RDONLY);
    assertThat(entries()).isEmpty();
  }

  @Test
  void aPrepareThatCannotWriteItsLogVotesToRollBackAndDeliversNothing() throws Exception {
    Path blocker = Files.writeString(mailFolder.resolve("not-a-folder"), "");
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setMemoryScope(scope);
    adapter.setPrepareLogDirectory(blocker.resolve("prepare-log").toString());
    adapter.start(new FakeBootstrapContext());
    adapters.add(adapter);
    MailboxManagedConnection managed = connect(adapter);
    XAResource xa = managed.getXAResource();
    Xid xid = new TestXid(10);
    xa.start(xid, XAResource.TMNOFLAGS);
    ((MailboxConnection) managed.getConnection(null, null)).post(letter("order-10", "{}"));
    xa.end(xid, XAResource.TMSUCCESS);

    assertThatThrownBy(() -> xa.prepare(xid))
        .isInstanceOf(XAException.class)
        .extracting(e -> ((XAException) e).errorCode)
        .isEqualTo(XAException.XA_RBROLLBACK);
    assertThat(unread(adapter)).isZero();
  }

  @Test
  void aPrepareLogDirectoryThatIsAFileStopsTheAdapterAtStart() throws Exception {
    Path file = Files.writeString(mailFolder.resolve("a-file"), "");
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setPrepareLogDirectory(file.toString());

    assertThatThrownBy(() -> adapter.start(new FakeBootstrapContext()))
        .hasMessageStartingWith("MBX-1008")
        .hasMessageContaining("prepareLogDirectory");
  }

  @Test
  void everyCompletionOfAnUnknownBranchIsRefusedWithNota() throws Exception {
    XAResource xa = connect(start("mem")).getXAResource();
    Xid unknown = new TestXid(8);

    for (XaCall call :
        List.<XaCall>of(
            () -> xa.commit(unknown, false),
            () -> xa.commit(unknown, true),
            () -> xa.rollback(unknown),
            () -> xa.forget(unknown))) {
      assertThatThrownBy(call::run)
          .isInstanceOf(XAException.class)
          .extracting(e -> ((XAException) e).errorCode)
          .isEqualTo(XAException.XAER_NOTA);
    }
  }

  @Test
  void theLiveBranchCommitsFromTheLogAndLeavesItEmpty() throws Exception {
    MailboxResourceAdapter adapter = start("mem");
    MailboxManagedConnection managed = connect(adapter);
    Xid xid = new TestXid(9);
    prepareHolding(managed, xid, List.of(letter("order-9", "{}")));
    managed.destroy(); // the pool drops the connection: memory goes, the log stays

    managed.getXAResource().commit(xid, false);

    assertThat(fetchAll(adapter)).extracting(MailMessage::id).containsExactly("order-9");
    assertThat(entries()).isEmpty();
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private MailboxResourceAdapter start(String providers) throws Exception {
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setMemoryScope(scope);
    adapter.setEnabledProviders(providers);
    adapter.setFileRoot(mailFolder.toString());
    adapter.setPrepareLogDirectory(logDirectory.toString());
    adapter.start(new FakeBootstrapContext());
    adapters.add(adapter);
    return adapter;
  }

  /** The process dies: its connections and their memory are gone; only the disk remains. */
  private void crash(MailboxResourceAdapter adapter) {
    adapters.remove(adapter);
    adapter.stop(); // frees its timer; stopping never touches the prepare log
  }

  private static MailboxManagedConnection connect(MailboxResourceAdapter adapter) throws Exception {
    MailboxManagedConnectionFactory factory = new MailboxManagedConnectionFactory();
    factory.setResourceAdapter(adapter);
    return (MailboxManagedConnection) factory.createManagedConnection(null, null);
  }

  private static void prepareHolding(
      MailboxResourceAdapter adapter, Xid xid, List<MailMessage> posts) throws Exception {
    prepareHolding(connect(adapter), xid, posts);
  }

  private static void prepareHolding(
      MailboxManagedConnection managed, Xid xid, List<MailMessage> posts) throws Exception {
    XAResource xa = managed.getXAResource();
    xa.start(xid, XAResource.TMNOFLAGS);
    ((MailboxConnection) managed.getConnection(null, null)).postAll(posts);
    xa.end(xid, XAResource.TMSUCCESS);
    assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
  }

  private static MailMessage letter(String id, String body) {
    return MailMessage.to(INBOX)
        .id(id)
        .from("mem:orders@shop/desk")
        .body(body)
        .header("correlation", "00-" + id)
        .meta("tenant", "acme")
        .build();
  }

  /** The log's entries (the corrupt folder aside), by file name. */
  private List<String> entries() {
    try (Stream<Path> files = Files.list(logDirectory)) {
      return files
          .filter(Files::isRegularFile)
          .map(file -> file.getFileName().toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private List<MailMessage> loggedPosts(String entry) throws Exception {
    return PrepareLogFormat.decode(Files.readAllBytes(logDirectory.resolve(entry))).posts();
  }

  private static long unread(MailboxResourceAdapter adapter) {
    return adapter.kernel().status(INBOX).unreadCount();
  }

  /** Everything queued for the inbox, as posted (the send boundary's stamps removed). */
  private static List<MailMessage> fetchAll(MailboxResourceAdapter adapter) {
    List<MailMessage> fetched = new ArrayList<>();
    for (Optional<MailMessage> next = adapter.kernel().fetch(INBOX);
        next.isPresent();
        next = adapter.kernel().fetch(INBOX)) {
      MailMessage.Builder copy = next.get().toBuilder();
      next.get().headers().keySet().stream()
          .filter(name -> !name.equals("correlation"))
          .forEach(copy::removeHeader);
      fetched.add(copy.build());
    }
    return fetched;
  }

  private static Handler capture(List<String> lines) {
    Handler handler =
        new Handler() {
          private final SimpleFormatter formatter = new SimpleFormatter();

          @Override
          public void publish(LogRecord record) {
            synchronized (lines) {
              lines.add(formatter.formatMessage(record));
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    OUTBOUND_LOG.addHandler(handler);
    return handler;
  }

  @FunctionalInterface
  private interface XaCall {
    void run() throws Exception;
  }

  private record TestXid(int id) implements Xid {
    @Override
    public int getFormatId() {
      return 4711;
    }

    @Override
    public byte[] getGlobalTransactionId() {
      return new byte[] {(byte) id, (byte) (id >> 8)};
    }

    @Override
    public byte[] getBranchQualifier() {
      return new byte[] {1};
    }
  }
}
