package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The process {@link JdbcCrashIT} kills: posts {@code count} messages, leases them all, acks every
 * second one, prints what it did, then says READY and waits to be killed with unacked leases out.
 */
public final class CrashWorker {
  static final MailAddress QUEUE = MailAddress.parse("jdbc:crash@test/queue");

  /**
   * Each copy's lease. Longer than the worker's whole fetch, which is a select and a committed
   * update per copy: with 8 s and 200 copies, a fetch on a machine with slow commits (about 50 ms
   * each here) outlived its first leases and took those copies again (67 instead of 100 acks).
   */
  static final Duration LEASE = Duration.ofSeconds(15);

  private CrashWorker() {}

  public static void main(String[] args) throws Exception {
    int count = Integer.parseInt(args[0]);
    PGSimpleDataSource postgres = new PGSimpleDataSource();
    postgres.setURL("jdbc:postgresql://127.0.0.1:5432/test");
    postgres.setUser("postgres");
    MailboxProvider provider =
        MailboxProvider.of(new JdbcProvider(postgres, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    for (int i = 0; i < count; i++) {
      provider.post(MailMessage.to(QUEUE).id("m" + i).body("{}").build());
      System.out.println("POSTED m" + i);
    }
    List<Delivery> leased = provider.fetch(QUEUE, FetchOptions.leased(LEASE).limit(count));
    for (int i = 0; i < leased.size(); i++) {
      if (i % 2 == 0 && leased.get(i).ack()) {
        System.out.println("ACKED " + leased.get(i).message().id());
      }
    }
    System.out.println("READY " + leased.size());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
