package io.mailbox.connector.provider.redis;

import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;

/**
 * The conformance kit against the machine's Redis (127.0.0.1:6379), each test under a key prefix of
 * its own.
 */
class RedisProviderContractIT extends ProviderContract {
  /** This run's keys only: another build on the same server keeps its own. */
  private static final String RUN = "kit-" + UUID.randomUUID().toString().substring(0, 6) + "-";

  @AfterAll
  static void deleteTheKitsStreams() {
    RedisServer.deleteKeys(RUN);
  }

  @Override
  protected Transport newTransport() {
    String run = UUID.randomUUID().toString().substring(0, 8);
    RedisSettings settings =
        RedisSettings.defaults().withUrl(RedisServer.url()).withKeyPrefix(RUN + run);
    return new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler());
  }

  @Override
  protected Duration eventually() {
    return Duration.ofSeconds(10);
  }

  private static final Duration BOUND = Duration.ofSeconds(1);

  /** The publish-bound case on a server of its own, paused with SIGSTOP (others keep theirs). */
  @Override
  protected Optional<Unanswering> unanswering() throws Exception {
    PrivateRedisServer server = PrivateRedisServer.withoutPersistence();
    RedisSettings settings =
        RedisSettings.defaults().withUrl(server.url()).withPublishTimeout(BOUND);
    MailboxProvider bounded =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    bounded.start();
    return Optional.of(
        Unanswering.of(bounded, BOUND, server::pause, server::resume, server::close));
  }
}
