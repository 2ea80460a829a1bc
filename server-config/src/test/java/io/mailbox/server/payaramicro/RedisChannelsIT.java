package io.mailbox.server.payaramicro;

import io.mailbox.connector.provider.redis.PrivateRedisServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The quick start with its events on Redis Streams (issue 17), on a Redis server of the test's own
 * (its append-only file fsynced at every write) killed with SIGKILL mid-traffic and started again
 * on its files ({@link BrokerChannelsRun}).
 */
class RedisChannelsIT {

  @Test
  void theQuickStartsChannelsAndRelayRunOnRedisAndSurviveItsServerKilled() throws Exception {
    try (PrivateRedisServer redis = PrivateRedisServer.withAppendOnlyFile()) {
      BrokerChannelsRun.run(
          "redis",
          new BrokerChannelsRun.Broker() {
            @Override
            public void kill() throws Exception {
              redis.kill();
            }

            @Override
            public void start() throws Exception {
              redis.start();
            }
          },
          Map.of("MAILBOX_REDIS_URL", redis.url()));
    }
  }
}
