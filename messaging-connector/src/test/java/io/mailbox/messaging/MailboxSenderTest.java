package io.mailbox.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

class MailboxSenderTest {
  private final AtomicBoolean down = new AtomicBoolean(true);
  private final List<String> posted = new ArrayList<>();

  @Test
  void aRefusedSendIsNackedWithoutEndingTheChannel() throws Exception {
    MailboxSender sender =
        new MailboxSender(
            ChannelSettings.from(
                new MapConfig(
                    Map.of(
                        "channel-name", "shipping-requests",
                        "connection-factory", "mailbox/ConnectionFactory",
                        "address", "mem:shipping@shop/orders"))),
            this::factory);
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
