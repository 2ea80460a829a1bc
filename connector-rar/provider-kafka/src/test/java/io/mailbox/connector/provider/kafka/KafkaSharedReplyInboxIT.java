package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.RequestReply;
import io.mailbox.connector.kernel.Subscription;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Request/reply between instances on Kafka, where an address is a topic: two instances (two
 * providers, as two servers would run) ask one responder at once; every reply lands on the one
 * shared reply topic, each instance reads it in a group of its own, and each gets exactly its own
 * answers.
 */
class KafkaSharedReplyInboxIT {
  private final List<MailboxProvider> instances = new ArrayList<>();
  private final List<Subscription> subscriptions = new ArrayList<>();

  private MailboxProvider instance() {
    KafkaSettings settings =
        KafkaSettings.defaults()
            .withBootstrapServers(KafkaBroker.shared().bootstrapServers())
            .withTopicCreation(1);
    MailboxProvider provider =
        MailboxProvider.of(new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    instances.add(provider);
    return provider;
  }

  @AfterEach
  void stop() {
    subscriptions.forEach(Subscription::unsubscribe);
    instances.forEach(provider -> provider.stop(false));
  }

  @Test
  void twoInstancesAskingAtOnceEachGetTheirOwnRepliesThroughTheSharedInbox() throws Exception {
    MailAddress lookup =
        MailAddress.parse(
            "kafka://users@shop/lookup-" + UUID.randomUUID().toString().substring(0, 8));
    MailboxProvider responderSide = instance();
    java.util.Set<String> replyInboxes = java.util.concurrent.ConcurrentHashMap.newKeySet();
    subscriptions.add(
        new RequestReply()
            .respond(
                responderSide,
                lookup,
                request -> {
                  replyInboxes.add(request.meta().get(RequestReply.REPLY_TO));
                  return "{\"echo\":" + request.body() + "}";
                }));
    MailboxProvider first = instance();
    MailboxProvider second = instance();
    RequestReply firstRequests = new RequestReply();
    RequestReply secondRequests = new RequestReply();

    ExecutorService askers = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> answers = new ArrayList<>();
      for (int n = 0; n < 10; n++) {
        int question = n;
        boolean fromFirst = n % 2 == 0;
        answers.add(
            askers.submit(
                () ->
                    (fromFirst ? firstRequests : secondRequests)
                        .request(
                            fromFirst ? first : second,
                            lookup,
                            MailMessage.to(lookup).id("q-" + question).body("" + question).build(),
                            Duration.ofSeconds(30))
                        .body()));
      }
      for (int n = 0; n < 10; n++) {
        assertThat(answers.get(n).get()).as("question " + n).isEqualTo("{\"echo\":" + n + "}");
      }
    } finally {
      askers.shutdownNow();
    }

    MailAddress shared = MailAddress.parse("kafka://users@shop/" + RequestReply.SHARED_INBOX);
    assertThat(replyInboxes).as("one reply topic for both").containsExactly(shared.toString());
    AddressStatus firstInbox = first.status(shared);
    AddressStatus secondInbox = second.status(shared);
    assertThat(firstInbox.extensions().get("kafka.group"))
        .as("each instance reads the shared inbox in a group of its own")
        .isNotEqualTo(secondInbox.extensions().get("kafka.group"));
    assertThat(firstInbox.extensions().get("kafka.topic"))
        .isEqualTo(secondInbox.extensions().get("kafka.topic"));
  }
}
