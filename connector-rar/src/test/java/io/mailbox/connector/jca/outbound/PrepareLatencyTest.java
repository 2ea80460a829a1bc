package io.mailbox.connector.jca.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.jca.MailboxResourceAdapter;
import io.mailbox.connector.jca.testsupport.FakeBootstrapContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prints what a yes vote costs with its fsyncs (docs/transactions.md quotes it); a figure, not an
 * assertion, since it depends on the disk and the machine's load.
 */
class PrepareLatencyTest {
  private static final String INBOX = "mem:billing@shop/placed";

  @Test
  void prepareLatencyIsMeasured(@TempDir Path logDirectory) throws Exception {
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setMemoryScope("latency-" + UUID.randomUUID());
    adapter.setPrepareLogDirectory(logDirectory.toString());
    adapter.start(new FakeBootstrapContext());
    try {
      MailboxManagedConnectionFactory factory = new MailboxManagedConnectionFactory();
      factory.setResourceAdapter(adapter);
      MailboxManagedConnection managed =
          (MailboxManagedConnection) factory.createManagedConnection(null, null);
      MailboxConnection connection = (MailboxConnection) managed.getConnection(null, null);
      XAResource xa = managed.getXAResource();
      int rounds = 300;
      long[] prepareNanos = new long[rounds];
      long started = System.nanoTime();
      for (int i = 0; i < rounds; i++) {
        Xid xid = new BranchId(4711, UUID.randomUUID().toString().getBytes(), new byte[] {1});
        xa.start(xid, XAResource.TMNOFLAGS);
        connection.post(MailMessage.to(INBOX).id("m-" + i).body("{}").build());
        xa.end(xid, XAResource.TMSUCCESS);
        long before = System.nanoTime();
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        prepareNanos[i] = System.nanoTime() - before;
        xa.commit(xid, false);
      }
      long total = System.nanoTime() - started;
      Arrays.sort(prepareNanos);
      System.out.printf(
          "PrepareLog: %d prepare+commit rounds in %d ms; prepare median %.2f ms, p90 %.2f ms,"
              + " p99 %.2f ms (%s)%n",
          rounds,
          total / 1_000_000,
          prepareNanos[rounds / 2] / 1e6,
          prepareNanos[rounds * 9 / 10] / 1e6,
          prepareNanos[rounds * 99 / 100] / 1e6,
          Files.getFileStore(logDirectory).type());
      assertThat(adapter.kernel().status(INBOX).unreadCount()).isEqualTo(rounds);
      try (var left = Files.list(logDirectory)) {
        assertThat(left).as("every entry forgotten after its commit").isEmpty();
      }
    } finally {
      adapter.stop();
    }
  }
}
