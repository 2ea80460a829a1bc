package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import io.mailbox.connector.testsupport.LeavingSubscriber;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A reader asks for its next batch while it hands the current one over (read-ahead). What that read
 * brings is pending with this process before anyone holds it, so: a reader that stops hands it back
 * at once, not after the 30 s lease; and a stream deleted while the read waits is read again once
 * it exists, without a warning.
 */
class RedisReadAheadIT {
  private final String prefix = "readahead-" + UUID.randomUUID().toString().substring(0, 8);
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
  void whatAStoppingReaderReadAheadIsHandedBackAtOnceNotAfterTheLease() throws Exception {
    provider = start();
    LeavingSubscriber.postBacklog(provider, jobs, 3_000);
    Set<String> handled = ConcurrentHashMap.newKeySet();
    AtomicInteger first = LeavingSubscriber.subscribe(provider, jobs, 300, handled);
    Eventually.await("the first subscriber gone", Duration.ofSeconds(20), () -> first.get() >= 300);

    Thread.sleep(700); // the first reader has left (a new subscriber would otherwise keep it)
    assertThat(pendingCount()).isGreaterThan(256); // the rest of its batch and its read-ahead
    long start = System.nanoTime();
    provider.subscribe(jobs, MailboxSubscriber.of(m -> handled.add(m.id())));

    // The lease is 30 s: anything the first reader kept would come 30 s late.
    Eventually.await("every job handled", Duration.ofSeconds(10), () -> handled.size() == 3_000);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    Eventually.await("nothing left pending", Duration.ofSeconds(10), () -> pendingCount() == 0);
  }

  @Test
  void aStreamDeletedWhileAReadWaitsIsReadAgainWithoutAWarning() throws Exception {
    List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
              warnings.add(record);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger logger = Logger.getLogger("io.mailbox.connector.provider.redis");
    logger.addHandler(capture);
    try {
      provider = start();
      Set<String> handled = ConcurrentHashMap.newKeySet();
      provider.subscribe(jobs, MailboxSubscriber.of(m -> handled.add(m.id())));
      provider.post(MailMessage.to(jobs).id("before").body("{}").build());
      Eventually.await(
          "the first handled", Duration.ofSeconds(10), () -> handled.contains("before"));
      Thread.sleep(100); // the reader is back in a blocking read

      try (Jedis plain = RedisServer.plain()) {
        plain.del(stream);
      }
      Eventually.await(
          "a post after the delete handled",
          Duration.ofSeconds(15),
          () -> {
            provider.post(MailMessage.to(jobs).id("after").body("{}").build());
            return handled.contains("after");
          });
      assertThat(warnings).extracting(LogRecord::getMessage).isEmpty();
    } finally {
      logger.removeHandler(capture);
    }
  }

  private long pendingCount() {
    try (Jedis plain = RedisServer.plain()) {
      return plain.xpending(stream, "mailbox").getTotal();
    }
  }

  private MailboxProvider start() {
    RedisSettings settings =
        RedisSettings.defaults().withUrl(RedisServer.url()).withKeyPrefix(prefix);
    MailboxProvider started =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    started.start();
    return started;
  }
}
