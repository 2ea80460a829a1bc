package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.provider.file.FileProvider;
import io.mailbox.connector.provider.jdbc.JdbcProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store-and-forward recipe: file: (the store) → jdbc: with a dedupe window (the receiver). */
class StoreAndForwardBridgeTest {
  private static final String OUTBOX = "file:relay@site-a/outbox";
  private static final String INBOX = "jdbc:relay@site-b/inbox";

  @TempDir Path folder;
  private Mailbox mailbox;
  private MailboxProvider receiver;

  @BeforeEach
  void start() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:bridge-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1;MODE=LEGACY");
    h2.setUser("sa");
    receiver =
        MailboxProvider.of(
            new JdbcProvider(h2, Clock.systemUTC(), new ExecutorScheduler(), true)
                .withDedupeWindow(Duration.ofHours(1)));
    mailbox =
        new Mailbox()
            .register(
                MailboxProvider.of(
                    new FileProvider(folder, Clock.systemUTC(), new ExecutorScheduler())))
            .register(receiver);
    mailbox.start();
  }

  private List<String> received() {
    return mailbox.fetch(INBOX, FetchOptions.autoAck().limit(100)).stream()
        .map(d -> d.message().id())
        .toList();
  }

  @Test
  void messagesWaitInTheStoreWhileTheReceiverIsDownAndMoveOnceItIsBack() {
    StoreAndForwardBridge bridge =
        new StoreAndForwardBridge(mailbox, OUTBOX, INBOX, Duration.ofSeconds(30));
    mailbox.post(MailMessage.to(OUTBOX).id("a").body("{\"n\":1}").header("type", "t").build());
    mailbox.post(MailMessage.to(OUTBOX).id("b").body("{\"n\":2}").build());
    receiver.stop(false);

    assertThat(bridge.pump(10)).as("the receiver is down").isZero();
    assertThat(mailbox.status(OUTBOX).unreadCount())
        .as("nothing lost, nothing leased")
        .isEqualTo(2);

    receiver.start();
    assertThat(bridge.pump(10)).isEqualTo(2);
    assertThat(mailbox.status(OUTBOX).unreadCount()).isZero();
    List<MailMessage> arrived = mailbox.peek(INBOX, 10);
    assertThat(arrived).extracting(MailMessage::id).containsExactly("a", "b");
    assertThat(arrived.get(0).headers()).containsEntry("type", "t");
    assertThat(arrived.get(0).body()).isEqualTo("{\"n\":1}");
  }

  @Test
  void aResendAfterALostAckCollapsesAtTheReceiverSoItIsEffectivelyOnce() {
    StoreAndForwardBridge bridge =
        new StoreAndForwardBridge(mailbox, OUTBOX, INBOX, Duration.ofMillis(200));
    mailbox.post(MailMessage.to(OUTBOX).id("order-42").body("{}").build());
    // The first attempt reached the receiver, but the source never heard back (a crash before the
    // ack):
    mailbox.post(MailMessage.to(INBOX).id("order-42").body("{}").build());

    assertThat(bridge.pump(10)).as("forwarded again and acked at the source").isEqualTo(1);

    assertThat(received()).as("the repeat collapsed").containsExactly("order-42");
    assertThat(mailbox.status(OUTBOX).unreadCount()).isZero();
  }
}
