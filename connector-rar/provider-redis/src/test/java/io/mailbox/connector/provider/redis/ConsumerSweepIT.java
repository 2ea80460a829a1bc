package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamConsumerInfo;

/**
 * The sweep of consumers other processes left behind, on the real server, with an idle time of 600
 * ms instead of the hour: it deletes a consumer that holds nothing and idled longer; it keeps one
 * that holds an entry (another server reclaims it after the lease), one active lately, and this
 * process's own.
 */
class ConsumerSweepIT {
  private final String prefix = "sweep-" + UUID.randomUUID().toString().substring(0, 8);
  private final String key = prefix + ":{jobs@shop/work}";
  private RedisLink link;

  @AfterEach
  void stop() {
    if (link != null) {
      link.close();
    }
    RedisServer.deleteKeys(prefix);
  }

  @Test
  void deletesOnlyOtherProcessesIdleConsumersThatHoldNothing() throws Exception {
    RedisSettings settings =
        RedisSettings.defaults().withUrl(RedisServer.url()).withKeyPrefix(prefix);
    link = new RedisLink(settings, Clock.systemUTC());
    link.start();
    ConsumerGroups groups = new ConsumerGroups(link, "mailbox", 600);
    groups.ensure(key);
    try (Jedis plain = RedisServer.plain()) {
      plain.xgroupCreateConsumer(key, "mailbox", "gone-empty");
      plain.xgroupCreateConsumer(key, "mailbox", groups.consumer());
      plain.xadd(key, StreamEntryID.NEW_ENTRY, Map.of("body", "{}"));
      plain.xreadGroup(
          "mailbox",
          "gone-holding",
          XReadGroupParams.xReadGroupParams().count(1),
          Map.of(key, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
      Thread.sleep(800);
      plain.xgroupCreateConsumer(key, "mailbox", "just-started");

      groups.sweep(key);

      List<String> left =
          plain.xinfoConsumers2(key, "mailbox").stream().map(StreamConsumerInfo::getName).toList();
      assertThat(left)
          .containsExactlyInAnyOrder("gone-holding", "just-started", groups.consumer())
          .doesNotContain("gone-empty");
    }
  }
}
