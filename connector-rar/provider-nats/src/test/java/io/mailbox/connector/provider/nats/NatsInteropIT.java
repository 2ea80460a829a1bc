package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import io.nats.client.Connection;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.impl.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Plain jnats clients beside the provider on the machine's server: a plain publisher's message is
 * read through the provider (its headers normalized, its {@code Nats-Msg-Id} as the message id), a
 * post is read by a plain consumer (headers as docs/providers.md says), and a durable consumer of
 * the provider's name made by someone else is refused with a coded collision error.
 */
class NatsInteropIT {
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final String stream = "INTEROP_" + run;
  private final String prefix = "interop-" + run;
  private final NatsSettings settings =
      NatsSettings.defaults().withUrl(NatsServer.url()).withCreatedStream(stream, prefix);
  private final MailAddress orders = MailAddress.parse("nats://orders@shop/placed");
  private final SubjectNames names = new SubjectNames(prefix);
  private MailboxProvider provider;
  private Connection plain;

  @BeforeEach
  void start() throws Exception {
    provider =
        MailboxProvider.of(new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    plain = Nats.connect(NatsServer.url());
  }

  @AfterEach
  void stop() throws Exception {
    provider.stop(false);
    plain.close();
    NatsServer.deleteStreams(stream);
  }

  @Test
  void aPlainPublishersMessageIsReadWithItsHeadersNormalized() throws Exception {
    provider.status(orders); // nothing yet
    assertThat(provider.fetch(orders, FetchOptions.autoAck())).isEmpty(); // the consumer exists
    Headers headers = new Headers();
    headers.put("Nats-Msg-Id", "plain-42");
    headers.put("tenant", "eu-" + "w".repeat(2_000)); // cut at 1,024 characters
    headers.put("x".repeat(200), "a name too long to carry");
    headers.put("mbx-send-id", "forged");
    plain
        .jetStream()
        .publish(names.subject(orders), headers, "{\"n\":1}".getBytes(StandardCharsets.UTF_8));

    List<Delivery> got = new ArrayList<>();
    Eventually.await(
        "the plain message fetched",
        Duration.ofSeconds(10),
        () -> got.addAll(provider.fetch(orders, FetchOptions.autoAck())) || !got.isEmpty());
    MailMessage message = got.get(0).message();
    assertThat(message.id()).isEqualTo("plain-42");
    assertThat(message.body()).isEqualTo("{\"n\":1}");
    assertThat(message.header("tenant")).get().asString().hasSize(1_024).startsWith("eu-w");
    assertThat(message.sendId()).isPresent().get().isNotEqualTo("forged");
    // the forged mbx-send-id and the long name: dropped and counted, never shown
    assertThat(provider.status(orders).extensions()).containsEntry("nats.droppedHeaders", 2L);
  }

  @Test
  void aPlainMessageWithoutAnIdKeepsOneIdAndKeyAcrossItsDeliveries() throws Exception {
    assertThat(provider.fetch(orders, FetchOptions.autoAck())).isEmpty(); // the consumer exists
    plain.jetStream().publish(names.subject(orders), "{\"n\":3}".getBytes(StandardCharsets.UTF_8));

    List<Delivery> first = new ArrayList<>();
    Eventually.await(
        "the plain message fetched",
        Duration.ofSeconds(10),
        () -> first.addAll(provider.fetch(orders, FetchOptions.leased())) || !first.isEmpty());
    MailMessage message = first.get(0).message();
    assertThat(message.id()).as("where the stream stored it").matches(stream + ":\\d+");
    assertThat(first.get(0).settle(io.mailbox.connector.api.Disposition.UNHANDLED)).isTrue();
    List<Delivery> again = new ArrayList<>();
    Eventually.await(
        "delivered again",
        Duration.ofSeconds(10),
        () -> again.addAll(provider.fetch(orders, FetchOptions.leased())) || !again.isEmpty());

    assertThat(again.get(0).message().id()).isEqualTo(message.id());
    assertThat(again.get(0).key())
        .as("the same key: an inbox sees a redelivery")
        .isEqualTo(first.get(0).key());
    assertThat(again.get(0).ack()).isTrue();
  }

  @Test
  void aPostIsReadByAPlainConsumerWithOurHeaders() throws Exception {
    provider.post(
        MailMessage.to(orders).id("o-1").body("{\"n\":2}").header("tenant", "eu").build());
    var management = plain.jetStreamManagement();
    management.addOrUpdateConsumer(
        stream,
        ConsumerConfiguration.builder()
            .durable("plain-reader")
            .filterSubject(names.subject(orders))
            .deliverPolicy(DeliverPolicy.All)
            .ackPolicy(AckPolicy.Explicit)
            .build());
    JetStreamSubscription subscription =
        plain
            .jetStream()
            .subscribe(names.subject(orders), PullSubscribeOptions.bind(stream, "plain-reader"));
    List<Message> read = subscription.fetch(1, Duration.ofSeconds(5));
    assertThat(read).hasSize(1);
    Message record = read.get(0);
    assertThat(new String(record.getData(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":2}");
    assertThat(record.getHeaders().getFirst("mbx-message-id")).isEqualTo("o-1");
    assertThat(record.getHeaders().getFirst("mbx-producer")).isEqualTo("mailbox");
    assertThat(record.getHeaders().getFirst(SystemHeaders.SEND_ID)).isNotBlank();
    assertThat(record.getHeaders().getFirst("tenant")).isEqualTo("eu");
    record.ack();
  }

  @Test
  void aConsumerOfOurNameMadeByOthersIsRefusedWithBothNamed() throws Exception {
    MailAddress invoices = MailAddress.parse("nats://billing@shop/invoices");
    String name = names.consumer(settings.defaultGroup(), invoices);
    provider.post(MailMessage.to(orders).id("x").body("{}").build()); // the stream exists
    plain
        .jetStreamManagement()
        .addOrUpdateConsumer(
            stream,
            ConsumerConfiguration.builder()
                .durable(name)
                .description("someone else's reader")
                .filterSubject(names.subject(invoices))
                .ackPolicy(AckPolicy.Explicit)
                .build());

    assertThatThrownBy(() -> provider.fetch(invoices, FetchOptions.autoAck()))
        .isInstanceOf(MailboxException.class)
        .satisfies(
            e ->
                assertThat(((MailboxException) e).errorCode())
                    .isEqualTo(ErrorCode.CONSUMER_NAME_COLLISION))
        .hasMessageContaining(name)
        .hasMessageContaining("someone else's reader")
        .hasMessageContaining("billing@shop/invoices");

    // A second provider (another server) of the same group shares the consumer, no refusal.
    MailboxProvider second =
        MailboxProvider.of(new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    second.start();
    try {
      assertThat(second.fetch(orders, FetchOptions.autoAck())).hasSize(1);
    } finally {
      second.stop(false);
    }
  }
}
