package io.mailbox.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MailboxSenderTest {
  private final AtomicBoolean down = new AtomicBoolean(true);
  private final List<String> posted = new ArrayList<>();
  private final FakeTransactions transactions = new FakeTransactions();

  @AfterEach
  void leaveNoTransactionBehind() {
    CallerTransaction.registries = Optional::empty;
    transactions.enter(null);
  }

  @Test
  void aRefusedSendIsNackedWithoutEndingTheChannel() throws Exception {
    MailboxSender sender = sender();
    AtomicReference<Throwable> nacked = new AtomicReference<>();
    Message<String> first =
        Message.of("first")
            .withNack(
                reason -> {
                  nacked.set(reason);
                  return CompletableFuture.completedFuture(null);
                });

    // MailboxConnector feeds each send's stage to flatMapCompletionStage: a stage that fails
    // ends the channel's stream for good, so a refusal must complete it normally.
    CompletableFuture<Void> refused = sender.send(first).toCompletableFuture();
    assertThat(refused.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(refused).isNotCompletedExceptionally();
    assertThat(nacked.get()).as("the refused message was nacked").isNotNull();

    down.set(false); // the provider (or the database) is back
    sender.send(Message.of("second")).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(posted).as("the next message went through").containsExactly("second");
  }

  @Test
  void aMessageIsWrittenOnlyInTheTransactionItWasCreatedIn() throws Exception {
    CallerTransaction.registries = () -> Optional.of(transactions);
    down.set(false);
    MailboxSender sender = sender();
    Object orderA = "order A's transaction";
    Object orderB = "order B's transaction";

    transactions.enter(orderA);
    OutgoingMailboxMessage<String> forA = OutgoingMailboxMessage.of("ship A");
    AtomicReference<Throwable> nackedA = new AtomicReference<>();
    // The emitter's drain loop hands A's message over on B's thread, inside B's transaction.
    transactions.enter(orderB);
    sender
        .send(
            forA.withNack(
                reason -> {
                  nackedA.set(reason);
                  return CompletableFuture.completedFuture(null);
                }))
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    assertThat(posted).as("not written into B's transaction").isEmpty();
    assertThat(nackedA.get()).hasMessageContaining("MBX-2005");
    assertThat(transactions.isRollbackOnly(orderB)).as("B is not doomed for A's message").isFalse();
    assertThat(transactions.complete(orderA))
        .as("A completes without its message: rolled back")
        .isFalse();

    // B's own message, on B's thread: written, and B commits.
    OutgoingMailboxMessage<String> forB = OutgoingMailboxMessage.of("ship B");
    sender.send(forB).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(posted).containsExactly("ship B");
    assertThat(transactions.complete(orderB)).isTrue();
  }

  @Test
  void aMessageCreatedInATransactionAndNeverSentRollsItBack() {
    CallerTransaction.registries = () -> Optional.of(transactions);
    transactions.enter("T");
    OutgoingMailboxMessage.of("forgotten");
    assertThat(transactions.complete("T")).isFalse();
  }

  private MailboxSender sender() {
    return new MailboxSender(
        ChannelSettings.from(
            new MapConfig(
                Map.of(
                    "channel-name", "shipping-requests",
                    "connection-factory", "mailbox/ConnectionFactory",
                    "address", "mem:shipping@shop/orders"))),
        this::factory);
  }

  private MailboxConnectionFactory factory() {
    return (MailboxConnectionFactory)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {MailboxConnectionFactory.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getConnection")) {
                if (down.get()) {
                  throw new IllegalStateException("the provider is unreachable");
                }
                return connection();
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  private MailboxConnection connection() {
    return (MailboxConnection)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {MailboxConnection.class},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "post" -> posted.add(((MailMessage) args[0]).body());
                case "close" -> {}
                default -> throw new UnsupportedOperationException(method.getName());
              }
              return null;
            });
  }
}
