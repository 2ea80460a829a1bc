package io.mailbox.connector.provider.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Dead letters on RabbitMQ: what {@code amqp:} dead-letters (a spent delivery cap, a discard) and
 * what an operator does with a dead-letter queue (list, remove one, look many times).
 */
class AmqpDeadLettersIT extends AmqpProviderFixture {
  /**
   * An operator looks into a dead-letter queue (list, remove one) on the real broker: the records
   * keep their order, nothing is lost or duplicated, and a look into the live queue is refused
   * before anything is taken.
   */
  @Test
  void deadLettersAreListedInOrderAndOneIsRemovedWithoutLosingOrReorderingTheOthers() {
    MailboxProvider provider = started(AmqpSettings.defaults());
    provider.enableDeadLetterQueue(new DeadLetterPolicy(DeadLetterPolicy.DEFAULT_SUFFIX, 3));
    MailAddress inbox = address("browse");
    List<String> ids = List.of("a", "b", "c", "d", "e");
    for (String id : ids) {
      provider.post(MailMessage.to(inbox).id(id).body("{\"n\":\"" + id + "\"}").build());
    }
    for (int i = 0; i < ids.size(); i++) {
      assertThat(provider.fetch(inbox, FetchOptions.leased()).get(0).settle(Disposition.DISCARD))
          .isTrue();
    }
    MailAddress deadLetters = provider.deadLetterTopic(inbox).orElseThrow();
    await("dead-lettered", () -> provider.status(deadLetters).unreadCount() == 5);

    assertThatThrownBy(() -> provider.fetch(inbox, FetchOptions.peek(5)))
        .hasMessageStartingWith("MBX-1007");
    for (int look = 0; look < 3; look++) {
      assertThat(provider.fetch(deadLetters, FetchOptions.peek(10)))
          .extracting(d -> d.message().id())
          .containsExactlyElementsOf(ids);
    }
    assertThat(provider.fetch(deadLetters, FetchOptions.peek(2)))
        .extracting(d -> d.message().id())
        .containsExactly("a", "b");
    Delivery c = provider.fetch(deadLetters, FetchOptions.peek(10)).get(2);
    assertThat(c.message().header(SystemHeaders.DEAD_LETTER_REASON)).isPresent();

    assertThat(provider.removeQueued(deadLetters, c.key())).isEqualTo(1);
    assertThat(provider.removeQueued(deadLetters, c.key())).as("gone already").isZero();

    await("four left", () -> provider.status(deadLetters).unreadCount() == 4);
    List<String> drained = new ArrayList<>();
    for (Delivery record : provider.fetch(deadLetters, FetchOptions.autoAck().limit(10))) {
      drained.add(record.message().id());
    }
    assertThat(drained).as("in order, none lost, none twice").containsExactly("a", "b", "d", "e");
  }

  /**
   * A look hands every message back, which RabbitMQ counts as a delivery; RabbitMQ 4 drops a quorum
   * queue's message after 20 by default. Dead-letter (and parked) queues are declared with a
   * delivery limit looks cannot reach; a live queue keeps RabbitMQ's own.
   */
  @Test
  void aDeadLetterOutlivesManyLooksItsQueueDeclaredWithADeliveryLimitLooksCannotReach()
      throws Exception {
    MailboxProvider provider = started(AmqpSettings.defaults());
    provider.enableDeadLetterQueue(new DeadLetterPolicy(DeadLetterPolicy.DEFAULT_SUFFIX, 3));
    MailAddress inbox = address("looked-at");
    provider.post(MailMessage.to(inbox).id("a").body("{}").build());
    assertThat(provider.fetch(inbox, FetchOptions.leased()).get(0).settle(Disposition.DISCARD))
        .isTrue();
    MailAddress deadLetters = provider.deadLetterTopic(inbox).orElseThrow();
    await("dead-lettered", () -> provider.status(deadLetters).unreadCount() == 1);

    for (int look = 0; look < 25; look++) {
      assertThat(provider.fetch(deadLetters, FetchOptions.peek(10)))
          .extracting(d -> d.message().id())
          .containsExactly("a");
    }

    Map<String, Object> limited =
        Map.of("x-queue-type", "quorum", "x-delivery-limit", AmqpQueues.LOOKED_INTO_DELIVERY_LIMIT);
    try (Connection connection = RabbitMq.connect()) {
      Channel same = connection.createChannel();
      same.queueDeclare(deadLetters.mailbox(), true, false, false, limited); // equivalent: no error
      same.close();
      Channel live = connection.createChannel();
      assertThatThrownBy(() -> live.queueDeclare(inbox.mailbox(), true, false, false, limited))
          .as("the live queue has no such limit")
          .hasStackTraceContaining("x-delivery-limit");
    }
  }

  @Test
  void aCopyIsHandedOutUpToMaxDeliveriesThenDeadLetteredWithItsReason() {
    MailboxProvider provider = started(AmqpSettings.defaults().withMaxDeliveries(3));
    provider.enableDeadLetterQueue(new DeadLetterPolicy(DeadLetterPolicy.DEFAULT_SUFFIX, 3));
    MailAddress inbox = address("cap");
    provider.post(MailMessage.to(inbox).id("poison").body("{}").build());

    for (int round = 1; round <= 3; round++) {
      List<Delivery> got = provider.fetch(inbox, FetchOptions.leased());
      assertThat(got).as("round " + round).hasSize(1);
      assertThat(got.get(0).settle(Disposition.UNHANDLED)).isTrue();
    }
    assertThat(provider.fetch(inbox, FetchOptions.leased())).as("the cap is spent").isEmpty();

    MailAddress deadLetters = provider.deadLetterTopic(inbox).orElseThrow();
    MailMessage record = provider.fetch(deadLetters, FetchOptions.autoAck()).get(0).message();
    assertThat(record.id()).isEqualTo("poison");
    assertThat(record.headers())
        .containsEntry(SystemHeaders.DEAD_LETTER_REASON, "max-deliveries")
        .containsEntry(SystemHeaders.DEAD_LETTER_TOPIC, inbox.toString());
    assertThat(provider.status(inbox).unreadCount()).isZero();
  }

  @Test
  void aDiscardIsDeadLetteredWithAttemptsSourceAndABoundedError() {
    MailboxProvider provider = started(AmqpSettings.defaults());
    provider.enableDeadLetterQueue(new DeadLetterPolicy(DeadLetterPolicy.DEFAULT_SUFFIX, 3));
    MailAddress inbox = address("fatal");
    provider.subscribe(
        inbox,
        MailboxSubscriber.of(
            m -> {
              throw new IllegalArgumentException("bad payload " + "z".repeat(2_000));
            }));

    provider.post(MailMessage.to(inbox).id("broken").body("{}").build());

    MailAddress deadLetters = provider.deadLetterTopic(inbox).orElseThrow();
    await("dead-lettered", () -> provider.status(deadLetters).unreadCount() == 1);
    MailMessage record = provider.fetch(deadLetters, FetchOptions.autoAck()).get(0).message();
    assertThat(record.headers())
        .containsEntry(SystemHeaders.DEAD_LETTER_REASON, "fatal")
        .containsEntry(SystemHeaders.DEAD_LETTER_ATTEMPTS, "1")
        .containsEntry(SystemHeaders.DEAD_LETTER_TOPIC, inbox.toString());
    assertThat(record.header(SystemHeaders.DEAD_LETTER_ERROR).orElseThrow())
        .startsWith("java.lang.IllegalArgumentException: bad payload")
        .hasSizeLessThanOrEqualTo(300);
    await("the original was acked", () -> provider.status(inbox).inFlightCount() == 0);
    assertThat(provider.status(inbox).unreadCount()).isZero();
  }
}
