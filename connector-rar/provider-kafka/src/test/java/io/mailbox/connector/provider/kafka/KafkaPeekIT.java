package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Peeking at a Kafka address from a server that reads nothing of it: every partition is read from
 * where the group stands, the copies come oldest first across partitions, and nothing moves (the
 * group reads them all afterwards, at their first round). With the broker away a peek fails with
 * the coded "unavailable" error within its bound, and once it is back the same records show.
 */
class KafkaPeekIT {
  private static final int PARTITIONS = 3;
  private final List<MailboxProvider> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(provider -> provider.stop(true));
  }

  @Test
  void aPeekReadsEveryPartitionOldestFirstAndMovesNothing() throws Exception {
    MailAddress orders = address("peek");
    MailboxProvider reader = provider();
    MailboxProvider operator = provider(); // another server: the console's view of the address
    assertThat(reader.fetch(orders, FetchOptions.leased().limit(1))).isEmpty(); // group started
    List<String> posted = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      posted.add("o-" + i);
      reader.post(
          MailMessage.to(orders)
              .id("o-" + i)
              .header(PublishOptions.ORDERING_KEY, "customer-" + i) // spread over the partitions
              .body("{\"n\":" + i + "}")
              .build());
      Thread.sleep(5); // distinct send times
    }
    await("all nine unread", () -> operator.status(orders).unreadCount() == 9);

    List<Delivery> peeked = operator.fetch(orders, FetchOptions.peek(20));

    assertThat(peeked).extracting(d -> d.message().id()).containsExactlyElementsOf(posted);
    assertThat(operator.fetch(orders, FetchOptions.peek(2)))
        .extracting(d -> d.message().id())
        .containsExactly("o-0", "o-1");
    assertThat(peeked.get(0).settle(io.mailbox.connector.api.Disposition.HANDLED)).isFalse();
    assertThat((Long) operator.status(orders).extensions().get("kafka.oldestUnreadMs"))
        .as("the head's age, measured from the peek")
        .isPositive();
    assertThat(operator.status(orders).unreadCount()).as("the peek moved nothing").isEqualTo(9);

    List<Delivery> taken = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (taken.size() < 9 && System.nanoTime() < deadline) {
      taken.addAll(reader.fetch(orders, FetchOptions.leased().limit(16)));
    }
    assertThat(taken).extracting(d -> d.message().id()).containsExactlyInAnyOrderElementsOf(posted);
    assertThat(taken)
        .as("looking added no round")
        .allSatisfy(d -> assertThat(d.message().header(SystemHeaders.ROUND)).hasValue("1"));
    taken.forEach(d -> assertThat(d.ack()).isTrue());
    await(
        "nothing waits once the group committed",
        () -> operator.fetch(orders, FetchOptions.peek(20)).isEmpty());
  }

  @Test
  void aPeekOrAParkedPurgeWhileTheBrokerIsAwayFailsCodedAndChangesNothing() throws Exception {
    MailAddress orders = address("peek-away");
    KafkaProvider transport = transport();
    MailboxProvider reader = started(transport);
    assertThat(reader.fetch(orders, FetchOptions.leased().limit(1))).isEmpty();
    for (int i = 0; i < 3; i++) {
      reader.post(MailMessage.to(orders).id("w-" + i).body("{}").build());
    }
    transport.park(orders, MailMessage.to(orders).id("parked").body("{}").build());
    await("three unread", () -> reader.fetch(orders, FetchOptions.peek(5)).size() == 3);
    await("one parked", () -> reader.peekParked(orders, 5).size() == 1);

    KafkaBroker broker = KafkaBroker.shared();
    broker.stop();
    try {
      long before = System.nanoTime();
      assertThatThrownBy(() -> reader.fetch(orders, FetchOptions.peek(5)))
          .isInstanceOf(MailboxException.class)
          .hasMessageStartingWith(ErrorCode.CONNECTION_UNAVAILABLE.code());
      assertThatThrownBy(() -> reader.purgeParked(orders, null))
          .as("a purge never reads as \"0 purged\" while the cluster is away")
          .isInstanceOf(MailboxException.class)
          .hasMessageStartingWith(ErrorCode.CONNECTION_UNAVAILABLE.code());
      assertThat(Duration.ofNanos(System.nanoTime() - before))
          .as("bounded, never hanging")
          .isLessThan(Duration.ofSeconds(60));
    } finally {
      broker.start();
    }

    await(
        "the same three once the broker is back",
        () -> peekIds(reader, orders).equals(List.of("w-0", "w-1", "w-2")));
    assertThat(reader.peekParked(orders, 5)).as("the refused purge took nothing").hasSize(1);
    assertThat(reader.purgeParked(orders, null)).isEqualTo(1);
  }

  private static List<String> peekIds(MailboxProvider provider, MailAddress address) {
    try {
      return provider.fetch(address, FetchOptions.peek(5)).stream()
          .map(d -> d.message().id())
          .toList();
    } catch (MailboxException notYet) {
      return List.of();
    }
  }

  private static MailAddress address(String name) {
    return MailAddress.parse(
        "kafka://billing@shop/" + name + "-" + UUID.randomUUID().toString().substring(0, 8));
  }

  private MailboxProvider provider() {
    return started(transport());
  }

  private static KafkaProvider transport() {
    KafkaSettings settings =
        KafkaSettings.defaults()
            .withBootstrapServers(KafkaBroker.shared().bootstrapServers())
            .withTopicCreation(PARTITIONS);
    return new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler());
  }

  private MailboxProvider started(KafkaProvider transport) {
    MailboxProvider provider = MailboxProvider.of(transport);
    provider.start();
    started.add(provider);
    return provider;
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
