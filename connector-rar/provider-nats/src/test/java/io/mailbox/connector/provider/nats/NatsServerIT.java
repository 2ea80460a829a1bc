package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The NATS server going wrong, on servers of the test's own: one without JetStream is refused at
 * start with a named, coded error; one killed with SIGKILL and started again in the middle of
 * 10,000 posts loses no acknowledged post; and a consumer that stops without acknowledging hands
 * its messages to another instance after the ack wait.
 */
class NatsServerIT {
  private static final MailAddress ORDERS = MailAddress.parse("nats://orders@shop/restart");

  @Test
  void aServerWithoutJetStreamIsRefusedAtStartWithANamedError() throws Exception {
    try (PrivateNatsServer plain = PrivateNatsServer.withoutJetStream()) {
      MailboxProvider provider = MailboxProvider.of(provider(settings(plain.url())));
      assertThatThrownBy(provider::start)
          .isInstanceOf(MailboxException.class)
          .satisfies(
              e ->
                  assertThat(((MailboxException) e).errorCode())
                      .isEqualTo(ErrorCode.BROKER_PREREQUISITE))
          .hasMessageContaining("has no JetStream")
          .hasMessageContaining("-js");
    }
  }

  @Test
  void aServerKilledAndStartedAgainMidRunLosesNoAcknowledgedPost() throws Exception {
    try (PrivateNatsServer server = PrivateNatsServer.withJetStream()) {
      MailboxProvider sender = started(settings(server.url()));
      MailboxProvider reader = started(settings(server.url()));
      Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
      reader.subscribe(
          ORDERS,
          MailboxSubscriber.of(
              m -> seen.computeIfAbsent(m.id(), id -> new AtomicInteger()).incrementAndGet()));
      Set<String> acknowledged = ConcurrentHashMap.newKeySet();
      int refused = 0;
      for (int batch = 0; batch < 100; batch++) {
        List<MailMessage> posts = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          posts.add(MailMessage.to(ORDERS).id("o-" + (batch * 100 + i)).body("{}").build());
        }
        if (batch == 40) {
          server.kill(); // SIGKILL in the middle of the run
          Thread.sleep(1_000);
          server.start();
        }
        try {
          sender.postAll(posts);
          posts.forEach(p -> acknowledged.add(p.id()));
        } catch (MailboxException refusedWhileAway) {
          refused += posts.size();
        }
      }
      Eventually.await(
          "every acknowledged post consumed",
          Duration.ofSeconds(120),
          () -> seen.keySet().containsAll(acknowledged));
      long twice = seen.values().stream().filter(c -> c.get() > 1).count();
      System.out.printf(
          "NatsServerIT: 10,000 posts, %d acknowledged, %d refused while the server was away, %d"
              + " consumed, %d more than once%n",
          acknowledged.size(), refused, seen.size(), twice);
      assertThat(acknowledged.size()).isGreaterThanOrEqualTo(9_000);
      assertThat(seen.keySet()).containsAll(acknowledged);
      sender.stop(false);
      reader.stop(false);
    }
  }

  @Test
  void messagesAStoppedConsumerHeldComeToAnotherAfterTheAckWait() throws Exception {
    try (PrivateNatsServer server = PrivateNatsServer.withJetStream()) {
      NatsSettings settings = settings(server.url()).withAckWait(Duration.ofSeconds(2));
      MailboxProvider sender = started(settings);
      MailboxProvider stuck = started(settings);
      AtomicInteger heldByStuck = new AtomicInteger();
      // A subscriber that never finishes: its messages stay unacknowledged.
      stuck.subscribe(
          ORDERS,
          message -> {
            heldByStuck.incrementAndGet();
            return new java.util.concurrent.CompletableFuture<>();
          });
      List<MailMessage> posts = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        posts.add(MailMessage.to(ORDERS).id("h-" + i).body("{}").build());
      }
      sender.postAll(posts);
      Eventually.await(
          "the stuck one holds them", Duration.ofSeconds(10), () -> heldByStuck.get() == 20);
      stuck.transport().stop(false); // its connection goes, nothing acknowledged

      MailboxProvider other = started(settings);
      Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
      long started = System.nanoTime();
      other.subscribe(
          ORDERS,
          MailboxSubscriber.of(
              m -> seen.computeIfAbsent(m.id(), id -> new AtomicInteger()).incrementAndGet()));
      Eventually.await("all 20 redelivered", Duration.ofSeconds(30), () -> seen.size() == 20);
      System.out.printf(
          "NatsServerIT: 20 messages a stopped consumer held reached another in %d ms (ack wait"
              + " 2 s)%n",
          (System.nanoTime() - started) / 1_000_000);
      other.stop(false);
      sender.stop(false);
    }
  }

  /**
   * A reader's batch confirms its acknowledgements without waiting for the answer; the counts that
   * keep the status right meanwhile must come back to zero when the answer never comes (the server
   * hangs past the confirmation's bound), neither stuck (hiding unread messages) nor below zero
   * (showing settled ones as unread).
   */
  @Test
  void confirmationsAHungServerNeverAnswersLeaveTheCountsAfterTheirBound() throws Exception {
    try (PrivateNatsServer server = PrivateNatsServer.withJetStream()) {
      NatsProvider transport = provider(settings(server.url()));
      MailboxProvider reader = MailboxProvider.of(transport);
      reader.start();
      MailboxProvider sender = started(settings(server.url()));
      java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
      Set<String> seen = ConcurrentHashMap.newKeySet();
      var subscription =
          reader.subscribe(
              ORDERS,
              MailboxSubscriber.of(
                  m -> {
                    try {
                      gate.await(); // the first batch waits here until the server hangs
                    } catch (InterruptedException stopping) {
                      Thread.currentThread().interrupt();
                    }
                    seen.add(m.id());
                  }));
      List<MailMessage> posts = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        posts.add(MailMessage.to(ORDERS).id("c-" + i).body("{}").build());
      }
      sender.postAll(posts);
      Eventually.await(
          "the reader holds the first of them",
          Duration.ofSeconds(10),
          () -> transport.status(ORDERS).inFlightCount() > 0);
      server.pause(); // acknowledgements and their confirmation go out; nothing answers
      gate.countDown();
      Thread.sleep(7_000); // past the 5 s bound of the confirmation
      server.resume();
      Eventually.await("all 100 consumed", Duration.ofSeconds(60), () -> seen.size() == 100);
      subscription.unsubscribe();
      // Two new posts, held unacknowledged by another instance: the status counts what another
      // instance holds as unread, less what this one still counts as unconfirmed.
      sender.subscribe(ORDERS, message -> new java.util.concurrent.CompletableFuture<>());
      sender.postAll(
          List.of(
              MailMessage.to(ORDERS).id("after-1").body("{}").build(),
              MailMessage.to(ORDERS).id("after-2").body("{}").build()));
      Eventually.await(
          "exactly the two new posts unread here, nothing in flight here",
          Duration.ofSeconds(30),
          () -> {
            AddressStatus status = transport.status(ORDERS);
            return status.unreadCount() == 2 && status.inFlightCount() == 0;
          });
      sender.stop(false);
      reader.stop(false);
    }
  }

  @Test
  void aServerDownAtStartHoldsNothingUpAndIsUsedOnceItAnswers() throws Exception {
    try (PrivateNatsServer server = PrivateNatsServer.withJetStream()) {
      server.kill();
      MailboxProvider provider = MailboxProvider.of(provider(settings(server.url())));
      long started = System.nanoTime();
      provider.start(); // the adapter's other providers start after this one: it must return
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      assertThat(tookMillis).as("start with the server away, ms").isLessThan(10_000);
      MailMessage early = MailMessage.to(ORDERS).id("early").body("{}").build();
      assertThatThrownBy(() -> provider.post(early))
          .isInstanceOf(MailboxException.class)
          .hasMessageStartingWith("MBX-2003");
      assertThat(provider.status(ORDERS).state().name()).isEqualTo("OFFLINE");

      server.start();
      Eventually.await(
          "posts work once the server answers",
          Duration.ofSeconds(30),
          () -> {
            try {
              provider.post(MailMessage.to(ORDERS).id("late").body("{}").build());
              return true;
            } catch (MailboxException notYet) {
              return false;
            }
          });
      assertThat(provider.fetch(ORDERS, io.mailbox.connector.api.FetchOptions.autoAck()))
          .extracting(d -> d.message().id())
          .containsExactly("late");
      provider.stop(false);
    }
  }

  @Test
  void aServerBackWithoutItsStoreGetsItsStreamAndConsumersAgain() throws Exception {
    try (PrivateNatsServer server = PrivateNatsServer.withJetStream()) {
      MailboxProvider provider = started(settings(server.url()));
      provider.post(MailMessage.to(ORDERS).id("before").body("{}").build());
      assertThat(provider.fetch(ORDERS, io.mailbox.connector.api.FetchOptions.autoAck()))
          .hasSize(1);
      server.kill();
      server.loseStore();
      server.start();
      Eventually.await(
          "the stream and the consumer made again",
          Duration.ofSeconds(30),
          () -> {
            try {
              provider.post(MailMessage.to(ORDERS).id("after").body("{}").build());
              return true;
            } catch (MailboxException notYet) {
              return false;
            }
          });
      assertThat(provider.fetch(ORDERS, io.mailbox.connector.api.FetchOptions.autoAck()))
          .extracting(d -> d.message().id())
          .containsExactly("after");
      provider.stop(false);
    }
  }

  /**
   * What an operator looks at or removes while the server is away: a peek, a listing of parked
   * records, a removal by key, a purge and a parked purge fail with the coded "unavailable" error
   * within their bound — killed (connection refused) or hung (SIGSTOP: the socket open, nothing
   * answering) — the address shows offline without an oldest unread age, and once the server is
   * back the same messages show, in their order: nothing was removed.
   */
  @Test
  void lookingOrRemovingWhileTheServerIsAwayFailsCodedWithinItsBoundAndChangesNothing()
      throws Exception {
    try (PrivateNatsServer server = PrivateNatsServer.withJetStream()) {
      MailboxProvider provider = started(settings(server.url()));
      for (String id : List.of("a", "b", "c")) {
        provider.post(MailMessage.to(ORDERS).id(id).body("{}").build());
      }
      assertThat(peekIds(provider)).containsExactly("a", "b", "c");
      String key =
          provider.fetch(ORDERS, io.mailbox.connector.api.FetchOptions.peek(1)).get(0).key();

      server.pause();
      try {
        assertLookingFailsWithinBound(provider, key, "hung");
      } finally {
        server.resume();
      }
      Eventually.await(
          "answers again after SIGCONT",
          Duration.ofSeconds(30),
          () -> peekIds(provider).size() == 3);

      server.kill();
      assertLookingFailsWithinBound(provider, key, "killed");
      Eventually.await(
          "offline, no age shown",
          Duration.ofSeconds(30),
          () -> provider.status(ORDERS).state().name().equals("OFFLINE"));
      assertThat(provider.status(ORDERS).extensions()).doesNotContainKey("nats.oldestUnreadMs");

      server.start();
      Eventually.await(
          "the same three once the server is back",
          Duration.ofSeconds(30),
          () -> peekIds(provider).equals(List.of("a", "b", "c")));
      assertThat(provider.peekParked(ORDERS, 10)).isEmpty();
      provider.stop(true);
    }
  }

  private static void assertLookingFailsWithinBound(
      MailboxProvider provider, String key, String how) {
    long started = System.nanoTime();
    assertThatThrownBy(() -> provider.removeQueued(ORDERS, key))
        .as("a removal by key, server " + how)
        .isInstanceOf(MailboxException.class)
        .hasMessageStartingWith(ErrorCode.CONNECTION_UNAVAILABLE.code());
    assertThatThrownBy(() -> provider.removeQueued(ORDERS, null))
        .as("a purge, server " + how)
        .isInstanceOf(MailboxException.class)
        .hasMessageStartingWith(ErrorCode.CONNECTION_UNAVAILABLE.code());
    assertThatThrownBy(() -> provider.purgeParked(ORDERS, null))
        .as("a purge of the parked records, server " + how)
        .isInstanceOf(MailboxException.class)
        .hasMessageStartingWith(ErrorCode.CONNECTION_UNAVAILABLE.code());
    assertThatThrownBy(() -> provider.fetch(ORDERS, io.mailbox.connector.api.FetchOptions.peek(5)))
        .as("a peek, server " + how)
        .isInstanceOf(MailboxException.class)
        .hasMessageStartingWith(ErrorCode.CONNECTION_UNAVAILABLE.code());
    assertThatThrownBy(() -> provider.peekParked(ORDERS, 5))
        .as("the parked records, server " + how)
        .isInstanceOf(MailboxException.class)
        .hasMessageStartingWith(ErrorCode.CONNECTION_UNAVAILABLE.code());
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    System.out.printf(
        "NatsServerIT: two removals, a parked purge, a peek and a parked listing, server %s:"
            + " refused in %d ms%n",
        how, took.toMillis());
    assertThat(took)
        .as("each answered within its bound, server " + how)
        .isLessThan(Duration.ofSeconds(60));
  }

  private static List<String> peekIds(MailboxProvider provider) {
    try {
      return provider.fetch(ORDERS, io.mailbox.connector.api.FetchOptions.peek(5)).stream()
          .map(d -> d.message().id())
          .toList();
    } catch (MailboxException notYet) {
      return List.of();
    }
  }

  private static NatsSettings settings(String url) {
    return NatsSettings.defaults().withUrl(url).withCreatedStream("MAILBOX", "mailbox");
  }

  private static NatsProvider provider(NatsSettings settings) {
    return new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler());
  }

  private static MailboxProvider started(NatsSettings settings) {
    MailboxProvider provider = MailboxProvider.of(provider(settings));
    provider.start();
    return provider;
  }
}
