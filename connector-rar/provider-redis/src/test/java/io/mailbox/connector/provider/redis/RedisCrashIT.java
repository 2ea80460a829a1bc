package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.resps.StreamConsumerInfo;

/**
 * A consumer killed with SIGKILL while entries are pending with it ({@link StuckConsumerProcess}, a
 * JVM of its own): another instance reclaims them after the lease and handles every one; the dead
 * consumer is left holding nothing. Also: a consumer whose connections Redis drops ({@code CLIENT
 * KILL}) reads on after reconnecting and loses nothing.
 */
class RedisCrashIT {
  private static final Duration LEASE = Duration.ofSeconds(2);
  private final String prefix = "crash-" + UUID.randomUUID().toString().substring(0, 8);
  private final MailAddress jobs = MailAddress.parse("redis://jobs@shop/work");
  private final String stream = prefix + ":{jobs@shop/work}";
  private final RedisSettings settings =
      RedisSettings.defaults().withUrl(RedisServer.url()).withKeyPrefix(prefix).withLease(LEASE);
  private MailboxProvider survivor;
  private Process stuck;

  @AfterEach
  void stop() {
    if (stuck != null) {
      stuck.destroyForcibly();
    }
    if (survivor != null) {
      survivor.stop(false);
    }
    RedisServer.deleteKeys(prefix);
  }

  @Test
  void entriesPendingWithAKilledProcessAreReclaimedByAnotherAfterTheLease() throws Exception {
    survivor = start();
    List<String> posted = IntStream.range(0, 50).mapToObj(i -> "job-" + i).toList();
    posted.forEach(id -> survivor.post(MailMessage.to(jobs).id(id).body("{}").build()));

    stuck = startStuckConsumer();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(stuck.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null && !line.startsWith("GOT ")) {
      // READY, then the first message it is stuck on
    }
    assertThat(line).as("the other process took a message").startsWith("GOT ");
    try (Jedis plain = RedisServer.plain()) {
      assertThat(plain.xpending(stream, "mailbox").getTotal())
          .as("all fifty read by the stuck process")
          .isEqualTo(50);
    }
    stuck.destroyForcibly().waitFor(); // SIGKILL: no goodbye, nothing handed back
    long killedAt = System.nanoTime();

    Set<String> handled = ConcurrentHashMap.newKeySet();
    List<Long> firstAfter = new CopyOnWriteArrayList<>();
    survivor.subscribe(
        jobs,
        MailboxSubscriber.of(
            m -> {
              firstAfter.add(System.nanoTime() - killedAt);
              handled.add(m.id());
            }));

    Eventually.await("all fifty handled", Duration.ofSeconds(30), () -> handled.size() == 50);
    long firstMillis = firstAfter.get(0) / 1_000_000;
    System.out.printf(
        "RedisCrashIT: first reclaimed entry %d ms after the SIGKILL (lease %d ms)%n",
        firstMillis, LEASE.toMillis());
    assertThat(handled).containsExactlyInAnyOrderElementsOf(posted);
    assertThat(firstMillis).as("not before the lease ran out").isGreaterThanOrEqualTo(1_500);
    try (Jedis plain = RedisServer.plain()) {
      Eventually.await(
          "nothing pending",
          Duration.ofSeconds(10),
          () -> plain.xpending(stream, "mailbox").getTotal() == 0);
      List<StreamConsumerInfo> consumers = plain.xinfoConsumers2(stream, "mailbox");
      assertThat(consumers).allMatch(c -> c.getPending() == 0);
      assertThat(plain.xpending(stream, "mailbox", XPendingParams.xPendingParams("-", "+", 10)))
          .isEmpty();
    }
  }

  @Test
  void aConsumerWhoseConnectionsAreKilledReadsOnAndLosesNothing() throws Exception {
    survivor = start();
    Set<String> handled = ConcurrentHashMap.newKeySet();
    survivor.subscribe(jobs, MailboxSubscriber.of(m -> handled.add(m.id())));
    survivor.post(MailMessage.to(jobs).id("before").body("{}").build());
    Eventually.await("the first", Duration.ofSeconds(10), () -> handled.contains("before"));

    try (Jedis plain = RedisServer.plain()) {
      long killed =
          plain.clientKill(
              new redis.clients.jedis.params.ClientKillParams()
                  .type(redis.clients.jedis.args.ClientType.NORMAL)
                  .skipMe(redis.clients.jedis.params.ClientKillParams.SkipMe.YES));
      assertThat(killed).as("the provider's connections").isPositive();
    }
    for (int i = 0; i < 20; i++) {
      String id = "after-" + i;
      Eventually.await(
          "a post after the kill",
          Duration.ofSeconds(10),
          () -> {
            try {
              survivor.post(MailMessage.to(jobs).id(id).body("{}").build());
              return true;
            } catch (RuntimeException poolConnectionWasKilled) {
              return false; // retried: the pool makes a new connection
            }
          });
    }

    Eventually.await("all handled", Duration.ofSeconds(20), () -> handled.size() == 21);
  }

  private MailboxProvider start() {
    MailboxProvider provider =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    return provider;
  }

  private Process startStuckConsumer() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            "-Djava.util.logging.config.file=/dev/null",
            StuckConsumerProcess.class.getName(),
            settings.url(),
            prefix,
            Long.toString(LEASE.toMillis()),
            jobs.toString())
        .redirectErrorStream(true)
        .start();
  }
}
