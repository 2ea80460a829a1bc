package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.FetchOptions;
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
 * Redis going wrong, on servers of the test's own: killed with SIGKILL and started again in the
 * middle of 10,000 posts (with an append-only file fsynced at every write, what Redis promises to
 * keep) loses no acknowledged post; without persistence it comes back empty and the provider makes
 * its group again and carries on; a server that stops answering fails a post after the publish
 * bound with an error naming the address and the bound; a server down at start is used once up; an
 * operator's removal while it is away fails coded and removes nothing.
 */
class RedisServerIT {
  private static final MailAddress ORDERS = MailAddress.parse("redis://orders@shop/restart");
  // What bounds every Redis call (its socket timeout) in the removal test.
  private static final Duration BOUND = Duration.ofSeconds(2);

  @Test
  void aServerKilledAndStartedAgainMidRunLosesNoAcknowledgedPost() throws Exception {
    try (PrivateRedisServer server = PrivateRedisServer.withAppendOnlyFile()) {
      MailboxProvider sender = started(settings(server.url()));
      MailboxProvider reader = started(settings(server.url()));
      Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
      reader.subscribe(
          ORDERS,
          MailboxSubscriber.of(
              m -> seen.computeIfAbsent(m.id(), id -> new AtomicInteger()).incrementAndGet()));
      Set<String> acknowledged = ConcurrentHashMap.newKeySet();
      Thread killer =
          new Thread(
              () -> {
                try {
                  while (acknowledged.size() < 4_000) {
                    Thread.sleep(1);
                  }
                  server.kill(); // SIGKILL while posts are on the wire
                  Thread.sleep(1_000);
                  server.start();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      killer.start();
      int refused = 0;
      for (int batch = 0; batch < 200; batch++) {
        List<MailMessage> posts = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          posts.add(MailMessage.to(ORDERS).id("o-" + (batch * 50 + i)).body("{}").build());
        }
        try {
          sender.postAll(posts);
          posts.forEach(p -> acknowledged.add(p.id()));
        } catch (MailboxException refusedWhileAway) {
          refused += posts.size();
          Thread.sleep(20);
        }
      }
      killer.join();
      Eventually.await(
          "every acknowledged post consumed",
          Duration.ofSeconds(120),
          () -> seen.keySet().containsAll(acknowledged));
      long twice = seen.values().stream().filter(n -> n.get() > 1).count();
      System.out.printf(
          "RedisServerIT: %d acknowledged, %d refused while Redis was away, %d consumed,"
              + " %d more than once%n",
          acknowledged.size(), refused, seen.size(), twice);
      assertThat(acknowledged.size()).isGreaterThan(5_000);
      assertThat(refused).as("posts refused while it was away").isPositive();
      reader.stop(false);
      sender.stop(false);
    }
  }

  @Test
  void aServerWithoutPersistenceComesBackEmptyAndTheProviderCarriesOn() throws Exception {
    try (PrivateRedisServer server = PrivateRedisServer.withoutPersistence()) {
      MailboxProvider provider = started(settings(server.url()));
      provider.post(MailMessage.to(ORDERS).id("lost").body("{}").build());
      server.kill();
      server.start(); // everything it held is gone: the stream, the group, the entry

      Eventually.await(
          "a post after the restart",
          Duration.ofSeconds(10),
          () -> {
            try {
              provider.post(MailMessage.to(ORDERS).id("after").body("{}").build());
              return true;
            } catch (MailboxException stillAway) {
              return false;
            }
          });
      assertThat(provider.fetch(ORDERS, FetchOptions.autoAck()))
          .extracting(d -> d.message().id())
          .containsExactly("after");
      provider.stop(false);
    }
  }

  @Test
  void aServerThatStopsAnsweringFailsAPostAfterThePublishBound() throws Exception {
    try (PrivateRedisServer server = PrivateRedisServer.withoutPersistence()) {
      MailboxProvider provider =
          started(settings(server.url()).withPublishTimeout(Duration.ofSeconds(1)));
      provider.post(MailMessage.to(ORDERS).id("first").body("{}").build());
      server.pause(); // SIGSTOP: the connection stays open, nothing answers
      try {
        long start = System.nanoTime();
        assertThatThrownBy(
                () -> provider.post(MailMessage.to(ORDERS).id("second").body("{}").build()))
            .isInstanceOf(MailboxException.class)
            .hasMessageStartingWith("MBX-2009")
            .hasMessageContaining(ORDERS.toString())
            .hasMessageContaining("1000 ms (redisPublishTimeoutMillis)")
            .hasMessageContaining("may still arrive");
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(tookMillis).isBetween(900L, 5_000L);
      } finally {
        server.resume();
      }
      provider.stop(false);
    }
  }

  @Test
  void aServerDownAtStartIsUsedOnceItAnswers() throws Exception {
    try (PrivateRedisServer server = PrivateRedisServer.withoutPersistence()) {
      server.kill();
      MailboxProvider provider = started(settings(server.url()));
      assertThat(provider.status(ORDERS).state().name()).isEqualTo("OFFLINE");
      assertThatThrownBy(() -> provider.post(MailMessage.to(ORDERS).id("a").body("{}").build()))
          .hasMessageStartingWith("MBX-2003");

      server.start();
      Eventually.await(
          "a post once Redis answers",
          Duration.ofSeconds(10),
          () -> {
            try {
              provider.post(MailMessage.to(ORDERS).id("b").body("{}").build());
              return true;
            } catch (MailboxException stillAway) {
              return false;
            }
          });
      assertThat(provider.fetch(ORDERS, FetchOptions.autoAck()))
          .extracting(d -> d.message().id())
          .containsExactly("b");
      provider.stop(false);
    }
  }

  /**
   * An operator's removal while Redis is away, killed or hung (SIGSTOP): a removal by key, a purge
   * and a parked purge fail with the coded "unavailable" error within a bound, and once Redis is
   * back every entry is still queued.
   */
  @Test
  void aRemovalWhileTheServerIsAwayFailsCodedAndRemovesNothing() throws Exception {
    try (PrivateRedisServer server = PrivateRedisServer.withAppendOnlyFile()) {
      MailboxProvider provider = started(settings(server.url()).withPublishTimeout(BOUND));
      for (String id : List.of("a", "b", "c")) {
        provider.post(MailMessage.to(ORDERS).id(id).body("{}").build());
      }
      String key = provider.fetch(ORDERS, FetchOptions.peek(1)).get(0).key();

      server.pause();
      try {
        assertRemovalFailsWithinBound(provider, key, "hung");
      } finally {
        server.resume();
      }
      server.kill();
      assertRemovalFailsWithinBound(provider, key, "killed");
      server.start();

      Eventually.await(
          "the same three once Redis is back",
          Duration.ofSeconds(30),
          () -> peekIds(provider).equals(List.of("a", "b", "c")));
      assertThat(provider.removeQueued(ORDERS, key)).as("works again").isEqualTo(1);
      provider.stop(false);
    }
  }

  private static void assertRemovalFailsWithinBound(
      MailboxProvider provider, String key, String how) {
    Map<String, Runnable> removals = new java.util.LinkedHashMap<>();
    removals.put("a removal by key", () -> provider.removeQueued(ORDERS, key));
    removals.put("a purge", () -> provider.removeQueued(ORDERS, null));
    removals.put("a parked purge", () -> provider.purgeParked(ORDERS, null));
    removals.forEach(
        (what, removal) -> {
          long started = System.nanoTime();
          assertThatThrownBy(removal::run)
              .as(what + ", server " + how)
              .isInstanceOf(MailboxException.class)
              .hasMessageStartingWith("MBX-2003");
          Duration took = Duration.ofNanos(System.nanoTime() - started);
          System.out.printf(
              "RedisServerIT: %s, server %s: refused in %d ms%n", what, how, took.toMillis());
          assertThat(took)
              .as(what + ": within a few of its calls' bound (" + BOUND + "), server " + how)
              .isLessThan(BOUND.multipliedBy(4));
        });
  }

  private static List<String> peekIds(MailboxProvider provider) {
    try {
      return provider.fetch(ORDERS, FetchOptions.peek(5)).stream()
          .map(d -> d.message().id())
          .toList();
    } catch (MailboxException notYet) {
      return List.of();
    }
  }

  private static RedisSettings settings(String url) {
    return RedisSettings.defaults().withUrl(url).withLease(Duration.ofSeconds(3));
  }

  private static MailboxProvider started(RedisSettings settings) {
    MailboxProvider provider =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    return provider;
  }
}
