package io.mailbox.connector.provider.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * What makes {@code jdbc:} the durable default, on PostgreSQL: committed mail survives a new
 * provider instance (a restart), an un-acked lease comes back after its visibility timeout, and a
 * stale receipt settles nothing.
 */
class JdbcProviderDurabilityIT {
  private static final MailAddress WORK = MailAddress.parse("jdbc:workers@shop/queue");

  private static MailboxProvider started(DataSource dataSource) {
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(dataSource, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    return provider;
  }

  @Test
  void committedAndUnackedMailSurvivesARestartAndComesBackAfterItsLease() throws Exception {
    DataSource database = QueueDatabase.postgres();
    MailboxProvider before = started(database);
    before.post(MailMessage.to(WORK).id("queued").body("{}").build());
    before.post(MailMessage.to(WORK).id("leased").body("{}").build());
    Delivery leased = before.fetch(WORK, FetchOptions.leased(Duration.ofMillis(500))).get(0);
    assertThat(leased.message().id()).isEqualTo("queued");

    // The "crash": the first instance is simply abandoned; a new one opens the same table.
    MailboxProvider after = started(database);
    assertThat(after.status(WORK).unreadCount()).isEqualTo(1);
    assertThat(after.status(WORK).inFlightCount()).isEqualTo(1);
    Thread.sleep(600);

    List<Delivery> again = after.fetch(WORK, FetchOptions.leased().limit(5));
    assertThat(again).extracting(d -> d.message().id()).containsExactly("queued", "leased");
    assertThat(again.get(0).message().header(SystemHeaders.ROUND)).contains("2");
    assertThat(leased.settle(Disposition.HANDLED)).as("the stale receipt is fenced off").isFalse();
    assertThat(again.get(0).ack()).isTrue();
    assertThat(again.get(1).ack()).isTrue();
    assertThat(after.status(WORK).unreadCount()).isZero();
    assertThat(after.status(WORK).inFlightCount()).isZero();
  }

  @Test
  void competingConsumersOnTwoInstancesNeverTakeTheSameRow() throws Exception {
    DataSource database = QueueDatabase.postgres();
    MailboxProvider one = started(database);
    MailboxProvider two = started(database);
    for (int i = 0; i < 50; i++) {
      one.post(MailMessage.to(WORK).id("m" + i).body("{}").build());
    }

    List<Delivery> first = one.fetch(WORK, FetchOptions.leased().limit(30));
    List<Delivery> second = two.fetch(WORK, FetchOptions.leased().limit(30));

    assertThat(first.size() + second.size()).isEqualTo(50);
    assertThat(first)
        .extracting(Delivery::key)
        .doesNotContainAnyElementsOf(second.stream().map(Delivery::key).toList());
  }

  @Test
  void theDedupeWindowCollapsesARepostOnPostgresAndSurvivesARestart() {
    DataSource database = QueueDatabase.postgres();
    MailboxProvider first =
        MailboxProvider.of(
            new JdbcProvider(database, Clock.systemUTC(), new ExecutorScheduler())
                .withDedupeWindow(Duration.ofMinutes(5)));
    first.start();
    first.post(MailMessage.to(WORK).id("order-42").body("{}").build());
    first.post(MailMessage.to(WORK).id("order-42").body("{}").build());

    MailboxProvider restarted =
        MailboxProvider.of(
            new JdbcProvider(database, Clock.systemUTC(), new ExecutorScheduler())
                .withDedupeWindow(Duration.ofMinutes(5)));
    restarted.start();
    restarted.post(MailMessage.to(WORK).id("order-42").body("{}").build());
    restarted.post(MailMessage.to(WORK).id("order-43").body("{}").build());

    assertThat(restarted.fetch(WORK, FetchOptions.autoAck().limit(10)))
        .extracting(d -> d.message().id())
        .containsExactly("order-42", "order-43");
  }

  @Test
  void concurrentPostsShareTransactionsAndEveryOneIsCommittedInOrderBeforeItReturns()
      throws Exception {
    DataSource database = QueueDatabase.postgres();
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(database, Clock.systemUTC(), new ExecutorScheduler())
                .withDedupeWindow(Duration.ofMinutes(5)));
    provider.start();
    int threads = 16;
    int perThread = 50;
    var pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    var start = new java.util.concurrent.CountDownLatch(1);
    List<java.util.concurrent.Future<?>> posters = new java.util.ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      posters.add(
          pool.submit(
              () -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                  provider.post(MailMessage.to(WORK).id("t" + thread + "-" + i).body("{}").build());
                  // Every thread also reposts one shared id: the window keeps exactly one.
                  if (i == perThread / 2) {
                    provider.post(MailMessage.to(WORK).id("shared").body("{}").build());
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (var poster : posters) {
      poster.get(60, java.util.concurrent.TimeUnit.SECONDS);
    }
    pool.shutdown();

    // Every post returned only after its commit, so a second instance sees all of them.
    MailboxProvider reader = started(database);
    assertThat(reader.status(WORK).unreadCount()).isEqualTo(threads * perThread + 1);
    List<String> ids =
        reader.fetch(WORK, FetchOptions.autoAck().limit(2 * threads * perThread)).stream()
            .map(d -> d.message().id())
            .toList();
    assertThat(ids).hasSize(threads * perThread + 1).containsOnlyOnce("shared");
    for (int t = 0; t < threads; t++) {
      String prefix = "t" + t + "-";
      List<String> ofThread = ids.stream().filter(id -> id.startsWith(prefix)).toList();
      assertThat(ofThread)
          .as("each poster's messages come out in the order it posted them")
          .containsExactlyElementsOf(
              java.util.stream.IntStream.range(0, perThread).mapToObj(i -> prefix + i).toList());
    }
    var extensions = provider.status(WORK).extensions();
    long rows = (Long) extensions.get("jdbc.groupCommit.rows");
    long batches = (Long) extensions.get("jdbc.groupCommit.batches");
    assertThat(rows).isEqualTo(threads * (perThread + 1));
    assertThat(batches).as("posts issued together shared transactions").isLessThan(rows / 2);
    assertThat(extensions).containsEntry("jdbc.collapsedDuplicates", (long) threads - 1);
  }

  @Test
  void postsIssuedTogetherCommitInBatchesOfAtMostFiveHundredAndAreAllStoredWhenTheCallReturns() {
    DataSource database = QueueDatabase.postgres();
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(database, Clock.systemUTC(), new ExecutorScheduler())
                .withDedupeWindow(Duration.ofMinutes(5)));
    provider.start();
    List<MailMessage> letters = new java.util.ArrayList<>();
    for (int i = 0; i < 1200; i++) {
      letters.add(MailMessage.to(WORK).id("bulk-" + i).body("{}").build());
    }
    letters.add(MailMessage.to(WORK).id("bulk-7").body("{}").build()); // a re-post: collapsed

    provider.postAll(letters);

    var extensions = provider.status(WORK).extensions();
    assertThat(extensions.get("jdbc.groupCommit.rows")).isEqualTo(1201L);
    assertThat(extensions.get("jdbc.groupCommit.batches")).isEqualTo(3L);
    assertThat(extensions).containsEntry("jdbc.collapsedDuplicates", 1L);
    MailboxProvider reader = started(database);
    assertThat(
            reader.fetch(WORK, FetchOptions.autoAck().limit(2000)).stream()
                .map(d -> d.message().id())
                .toList())
        .containsExactlyElementsOf(
            java.util.stream.IntStream.range(0, 1200).mapToObj(i -> "bulk-" + i).toList());
  }
}
