package io.mailbox.connector.jca.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.mem.MemoryBus;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.connector.testsupport.ManualClock;
import io.mailbox.connector.testsupport.ManualScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The retrier's timing, on a clock the test moves: the log and the mem: provider are real. */
class CommittedPostsRetrierTest {
  private static final String INBOX = "mem:billing@shop/placed";

  @TempDir Path directory;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final ManualScheduler scheduler = new ManualScheduler(clock);
  private final Mailbox kernel = new Mailbox(clock);
  private MailboxProvider memory;
  private PrepareLog log;

  @BeforeEach
  void start() {
    memory =
        MailboxProvider.of(
            new MemoryProvider(
                MemoryBus.scope("retrier-" + UUID.randomUUID()), clock, scheduler, Duration.ZERO));
    kernel.register(memory);
    kernel.start();
    log =
        new PrepareLog(
            directory, () -> kernel, scheduler, Duration.ofSeconds(1), Duration.ofSeconds(4));
  }

  private Xid prepared(int id) throws Exception {
    Xid xid = new BranchId(7, new byte[] {(byte) id}, new byte[] {1});
    log.prepare(xid, List.of(MailMessage.to(INBOX).id("m-" + id).body("{}").build()));
    return xid;
  }

  private long unread() {
    return kernel.status(INBOX).unreadCount();
  }

  private long entries() throws Exception {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void passesBackOffWhileTheProviderStaysDownAndDeliverOnceItIsBack() throws Exception {
    Xid xid = prepared(1);
    memory.stop(false);
    log.commit(xid);

    scheduler.advance(Duration.ofSeconds(1)); // pass 1 fails: next in 2 s
    scheduler.advance(Duration.ofSeconds(2)); // pass 2 fails: next in 4 s
    memory.start();
    scheduler.advance(Duration.ofSeconds(3));
    assertThat(unread()).as("4 s after the last failed pass, not 3").isZero();

    scheduler.advance(Duration.ofSeconds(1));
    assertThat(unread()).isEqualTo(1);
    assertThat(entries()).isZero();
    assertThat(scheduler.pending()).as("nothing left, no further pass").isZero();
  }

  @Test
  void theBackoffStopsAtItsCap() throws Exception {
    Xid xid = prepared(2);
    memory.stop(false);
    log.commit(xid);

    scheduler.advance(Duration.ofSeconds(1 + 2 + 4 + 4 + 4));
    memory.start();
    scheduler.advance(Duration.ofSeconds(4));

    assertThat(unread()).as("passes every 4 s once capped").isEqualTo(1);
  }

  @Test
  void aClosedLogStopsRetryingAndKeepsItsEntries() throws Exception {
    Xid xid = prepared(3);
    memory.stop(false);
    log.commit(xid);
    log.close();
    memory.start();

    scheduler.advance(Duration.ofMinutes(1));

    assertThat(unread()).isZero();
    assertThat(entries()).isEqualTo(1);
  }

  @Test
  void aReopenedLogDeliversWhatWasCommittedBeforeTheRestart() throws Exception {
    Xid xid = prepared(4);
    memory.stop(false);
    log.commit(xid);
    log.close();
    memory.start();

    PrepareLog reopened = PrepareLog.open(directory, () -> kernel, scheduler, Runnable::run);
    scheduler.advance(PrepareLog.FIRST_RETRY);

    assertThat(unread()).isEqualTo(1);
    assertThat(entries()).isZero();
    reopened.close();
  }

  @Test
  void aCommitHandsItsPostsOverOnTheOffTransactionThreadAndTheRetrierDoesNotNeedIt()
      throws Exception {
    // On a server the transaction manager calls commit on a thread still associated with the
    // transaction it completes; a jdbc: provider's connection taken there is enlisted into it and
    // refused (found by TransactionRecoveryIT on Payara Micro).
    List<String> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.Executor elsewhere =
        task -> {
          Thread worker =
              new Thread(
                  () -> {
                    threads.add(Thread.currentThread().getName());
                    task.run();
                  },
                  "off-transaction");
          worker.start();
          try {
            worker.join();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    PrepareLog offThread = handingOverWith(elsewhere);
    Xid xid = prepared(5);

    offThread.commit(xid);

    assertThat(threads).containsExactly("off-transaction");
    assertThat(unread()).isEqualTo(1);
    assertThat(entries()).isZero();
  }

  @Test
  void aRefusedHandOverLeavesThePostsCommittedForTheRetrier() throws Exception {
    PrepareLog refusing =
        handingOverWith(
            task -> {
              throw new IllegalStateException("the WorkManager refused the task");
            });
    Xid xid = prepared(6);

    refusing.commit(xid);
    assertThat(unread()).as("nothing handed over at commit").isZero();
    assertThat(entries()).as("kept, marked committed").isEqualTo(1);

    scheduler.advance(Duration.ofSeconds(1)); // the retrier's pass runs on its own thread
    assertThat(unread()).isEqualTo(1);
    assertThat(entries()).isZero();
  }

  /** A log on the test's directory whose commits hand their posts over through {@code executor}. */
  private PrepareLog handingOverWith(java.util.concurrent.Executor executor) {
    return new PrepareLog(
        directory, () -> kernel, scheduler, Duration.ofSeconds(1), Duration.ofSeconds(4), executor);
  }
}
