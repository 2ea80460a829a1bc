package io.mailbox.connector.provider.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * Rows nobody pushed reach the subscribers of their address: mail queued before a consumer started
 * (or by another server), and a broadcast that was never settled because its process died.
 */
class JdbcSubscriberPumpTest {
  private static final MailAddress WORK = MailAddress.parse("jdbc:shipping@shop/orders");

  private static DataSource database() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:pump-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1;MODE=LEGACY");
    h2.setUser("sa");
    return h2;
  }

  private static MailboxProvider started(DataSource database, Clock clock) {
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(database, clock, new ExecutorScheduler(), true)
                .withSubscriberPoll(Duration.ofMillis(100)));
    provider.start();
    return provider;
  }

  @Test
  void mailQueuedBeforeTheConsumerStartedIsPushedToItInOrder() throws Exception {
    MailboxProvider provider = started(database(), Clock.systemUTC());
    for (String id : List.of("a", "b", "c")) {
      provider.post(MailMessage.to(WORK).id(id).body("{}").build());
    }
    assertThat(provider.status(WORK).unreadCount()).isEqualTo(3);

    List<String> received = new CopyOnWriteArrayList<>();
    provider.subscribe(WORK, MailboxSubscriber.of(m -> received.add(m.id())));

    awaitUntil(() -> received.size() == 3 && provider.status(WORK).inFlightCount() == 0);
    assertThat(received).containsExactly("a", "b", "c");
    assertThat(provider.status(WORK).unreadCount()).isZero();
    provider.stop(false);
  }

  @Test
  void aBroadcastItsProcessNeverSettledReachesTheNextServersSubscriberAfterItsWindow()
      throws Exception {
    DataSource database = database();
    MailboxProvider crashed = started(database, Clock.systemUTC());
    // The subscriber of the "crashed" server takes the message and never answers.
    crashed.subscribe(WORK, message -> new CompletableFuture<Void>());
    crashed.post(MailMessage.to(WORK).id("order-7").body("{}").build());
    assertThat(crashed.status(WORK).inFlightCount()).isEqualTo(1);

    // A second server, its clock past the broadcast window (60 s), picks the row up.
    ManualClock later = new ManualClock(Instant.now().plus(Duration.ofMinutes(2)));
    MailboxProvider next = started(database, later);
    List<String> received = new CopyOnWriteArrayList<>();
    next.subscribe(WORK, MailboxSubscriber.of(m -> received.add(m.id())));

    awaitUntil(() -> received.contains("order-7") && next.status(WORK).inFlightCount() == 0);
    assertThat(received).containsExactly("order-7");
    assertThat(next.status(WORK).unreadCount()).isZero();
    next.stop(false);
  }

  @Test
  void withinItsWindowALiveBroadcastIsNotDeliveredTwice() throws Exception {
    MailboxProvider provider = started(database(), Clock.systemUTC());
    List<String> received = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> slow = new CompletableFuture<>();
    provider.subscribe(
        WORK,
        message -> {
          received.add(message.id());
          return slow;
        });
    provider.post(MailMessage.to(WORK).id("once").body("{}").build());

    Thread.sleep(500); // five pump rounds while the delivery is still running
    assertThat(received).containsExactly("once");
    slow.complete(null);
    awaitUntil(() -> provider.status(WORK).inFlightCount() == 0);
    assertThat(received).containsExactly("once");
    provider.stop(false);
  }

  private static void awaitUntil(java.util.function.BooleanSupplier condition) {
    io.mailbox.connector.testsupport.Eventually.await(
        "the pump delivered", Duration.ofSeconds(10), condition);
  }
}
