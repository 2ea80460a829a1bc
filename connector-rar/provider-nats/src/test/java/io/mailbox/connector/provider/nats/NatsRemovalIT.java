package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.nats.client.Connection;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An operator's removal on JetStream beyond the kit: a message handed out is never removed, even by
 * its key, nor one another group's consumer of the subject holds; a purge larger than one page
 * deletes every message not delivered yet.
 */
class NatsRemovalIT {
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final String stream = "REMOVAL_" + run;
  private final MailAddress jobs = MailAddress.parse("nats://jobs@shop/work");
  private MailboxProvider provider;

  @BeforeEach
  void start() {
    NatsSettings settings =
        NatsSettings.defaults()
            .withUrl(NatsServer.url())
            .withCreatedStream(stream, "removal-" + run);
    provider =
        MailboxProvider.of(new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
  }

  @AfterEach
  void stop() throws Exception {
    provider.stop(false);
    NatsServer.deleteStreams(stream);
  }

  @Test
  void aMessageHandedOutIsNeverRemovedEvenByItsKey() {
    provider.post(MailMessage.to(jobs).id("a").body("{}").build());
    Delivery held = provider.fetch(jobs, FetchOptions.leased()).get(0);

    assertThat(provider.removeQueued(jobs, held.key())).isZero();
    assertThat(provider.removeQueued(jobs, null)).isZero();

    assertThat(held.ack()).as("the copy in flight settles normally").isTrue();
  }

  @Test
  void aMessageAnotherGroupHoldsIsNeverRemoved() throws Exception {
    for (String id : List.of("a", "b", "c")) {
      provider.post(MailMessage.to(jobs).id(id).body("{}").build());
    }
    String subject = new SubjectNames("removal-" + run).subject(jobs);
    try (Connection raw = Nats.connect(NatsServer.url())) {
      raw.jetStreamManagement()
          .addOrUpdateConsumer(
              stream,
              ConsumerConfiguration.builder()
                  .durable("other-group")
                  .filterSubject(subject)
                  .ackPolicy(AckPolicy.Explicit)
                  .deliverPolicy(DeliverPolicy.All)
                  .build());
      JetStreamSubscription other =
          raw.jetStream().subscribe(subject, PullSubscribeOptions.bind(stream, "other-group"));
      List<Message> held = other.fetch(1, Duration.ofSeconds(5)); // "a", in flight there

      assertThat(provider.removeQueued(jobs, null))
          .as("b and c: the other group was never handed them")
          .isEqualTo(2);

      assertThat(held).hasSize(1);
      held.get(0).ack();
      assertThat(provider.fetch(jobs, FetchOptions.leased().limit(10)))
          .extracting(d -> d.message().id())
          .containsExactly("a");
    }
  }

  @Test
  void aPurgeDeletesEveryMessageNotDeliveredYetAcrossPagesButNotTheOneInFlight() {
    List<MailMessage> many = new ArrayList<>();
    for (int i = 0; i < 1_200; i++) {
      many.add(MailMessage.to(jobs).id("m" + i).body("{}").build());
    }
    provider.postAll(many);
    Delivery held = provider.fetch(jobs, FetchOptions.leased()).get(0);

    assertThat(provider.removeQueued(jobs, null)).isEqualTo(1_199);

    assertThat(provider.status(jobs).unreadCount()).isZero();
    assertThat(provider.fetch(jobs, FetchOptions.peek(10))).isEmpty();
    assertThat(held.message().id()).isEqualTo("m0");
    assertThat(held.ack()).isTrue();
  }
}
