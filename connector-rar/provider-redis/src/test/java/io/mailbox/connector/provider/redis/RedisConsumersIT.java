package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.kernel.Subscription;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.StreamConsumerInfo;

/**
 * The consumers a process leaves behind and what it says while Redis is away: a clean unsubscribe
 * deletes this process's consumer when nothing is pending with it and keeps it when something is
 * (for another server to reclaim); an outage is logged once at WARNING however often the reader
 * retries, and its end at INFO, the password of the URL in neither.
 */
class RedisConsumersIT {
  private final String prefix = "consumers-" + UUID.randomUUID().toString().substring(0, 8);
  private final MailAddress jobs = MailAddress.parse("redis://jobs@shop/work");
  private final String stream = prefix + ":{jobs@shop/work}";
  private MailboxProvider provider;

  @AfterEach
  void stop() {
    if (provider != null) {
      provider.stop(false);
    }
    RedisServer.deleteKeys(prefix);
  }

  @Test
  void aCleanUnsubscribeDeletesItsConsumerOnlyWhenNothingIsPendingWithIt() {
    provider = start(RedisServer.url());
    Set<String> handled = ConcurrentHashMap.newKeySet();
    Subscription subscription =
        provider.subscribe(jobs, MailboxSubscriber.of(m -> handled.add(m.id())));
    provider.post(MailMessage.to(jobs).id("a").body("{}").build());
    Eventually.await("handled", Duration.ofSeconds(10), () -> handled.contains("a"));
    try (Jedis plain = RedisServer.plain()) {
      assertThat(consumers(plain)).hasSize(1);

      subscription.unsubscribe();

      Eventually.await(
          "its idle consumer deleted", Duration.ofSeconds(10), () -> consumers(plain).isEmpty());

      // Something pending with this process: its consumer stays when the subscription closes.
      provider.post(MailMessage.to(jobs).id("held").body("{}").build());
      // (a reader still leaving may take it first and hand it back: fetch until it comes)
      List<Delivery> fetched = new java.util.ArrayList<>();
      Eventually.await(
          "the entry fetched",
          Duration.ofSeconds(10),
          () -> fetched.addAll(provider.fetch(jobs, FetchOptions.leased())) || !fetched.isEmpty());
      Delivery held = fetched.get(0);
      Subscription second = provider.subscribe(jobs, MailboxSubscriber.of(m -> {}));
      second.unsubscribe();
      List<StreamConsumerInfo> left = consumers(plain);
      assertThat(left).extracting(StreamConsumerInfo::getPending).contains(1L);
      assertThat(held.ack()).isTrue();
    }
  }

  @Test
  void anOutageIsLoggedOnceAtWarningAndItsEndAtInfo() throws Exception {
    List<LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            records.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger logger = Logger.getLogger("io.mailbox.connector.provider.redis");
    logger.addHandler(capture);
    try (PrivateRedisServer server = PrivateRedisServer.withoutPersistence()) {
      String url = "redis://:s3cret-pass@127.0.0.1:" + server.port();
      server.kill();
      server.startWithPassword("s3cret-pass");
      provider = start(url);
      Set<String> handled = ConcurrentHashMap.newKeySet();
      provider.subscribe(jobs, MailboxSubscriber.of(m -> handled.add(m.id())));

      server.kill();
      Thread.sleep(4_000); // the reader retries several times meanwhile
      server.startWithPassword("s3cret-pass");
      Eventually.await(
          "a post once Redis answers",
          Duration.ofSeconds(15),
          () -> {
            try {
              provider.post(MailMessage.to(jobs).id("after").body("{}").build());
              return true;
            } catch (RuntimeException stillAway) {
              return false;
            }
          });
      Eventually.await("handled", Duration.ofSeconds(15), () -> handled.contains("after"));
      provider.stop(false); // before the server goes: its end would be a second outage
      provider = null;
    } finally {
      logger.removeHandler(capture);
    }
    List<LogRecord> lost =
        records.stream().filter(r -> r.getMessage().startsWith("Lost Redis")).toList();
    assertThat(lost).hasSize(1);
    assertThat(lost.get(0).getLevel()).isEqualTo(Level.WARNING);
    assertThat(records)
        .anySatisfy(
            r -> {
              assertThat(r.getLevel()).isEqualTo(Level.INFO);
              assertThat(r.getMessage()).contains("answers again");
            });
    assertThat(records)
        .allSatisfy(
            r -> {
              assertThat(String.valueOf(r.getMessage())).doesNotContain("s3cret-pass");
              if (r.getThrown() != null) {
                assertThat(String.valueOf(r.getThrown().getMessage()))
                    .doesNotContain("s3cret-pass");
              }
            });
  }

  private MailboxProvider start(String url) {
    RedisSettings settings = RedisSettings.defaults().withUrl(url).withKeyPrefix(prefix);
    MailboxProvider started =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    started.start();
    return started;
  }

  private List<StreamConsumerInfo> consumers(Jedis plain) {
    return plain.xinfoConsumers2(stream, "mailbox");
  }
}
