package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * An operator's removal on Redis beyond the kit: an entry handed back (pending with the group,
 * idle) is removed and acknowledged, so no reclaim hands it out again; an entry in flight is never
 * removed, even by its key; a purge larger than one page takes every queued entry.
 */
class RedisRemovalIT {
  private final String prefix = "removal-" + UUID.randomUUID().toString().substring(0, 8);
  private final MailAddress jobs = MailAddress.parse("redis://jobs@shop/work");
  private final String stream = prefix + ":{jobs@shop/work}";
  private MailboxProvider provider;

  @BeforeEach
  void start() {
    RedisSettings settings =
        RedisSettings.defaults().withUrl(RedisServer.url()).withKeyPrefix(prefix);
    provider =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
  }

  @AfterEach
  void stop() {
    provider.stop(false);
    RedisServer.deleteKeys(prefix);
  }

  @Test
  void anEntryHandedBackIsRemovedByItsKeyAndNeverHandedOutAgain() {
    provider.post(MailMessage.to(jobs).id("a").body("{}").build());
    provider.post(MailMessage.to(jobs).id("b").body("{}").build());
    provider.fetch(jobs, FetchOptions.leased()).get(0).settle(Disposition.UNHANDLED);

    List<Delivery> listed = provider.fetch(jobs, FetchOptions.peek(10));
    assertThat(listed).extracting(d -> d.message().id()).containsExactly("a", "b");
    assertThat(provider.removeQueued(jobs, listed.get(0).key())).isEqualTo(1);

    try (Jedis redis = RedisServer.plain()) {
      assertThat(redis.xlen(stream)).as("a deleted from the stream").isEqualTo(1);
      assertThat(redis.xpending(stream, "mailbox").getTotal())
          .as("a no longer pending with the group")
          .isZero();
    }
    List<String> taken = new ArrayList<>();
    for (Delivery d : provider.fetch(jobs, FetchOptions.leased().limit(10))) {
      taken.add(d.message().id());
      d.ack();
    }
    assertThat(taken).containsExactly("b");
  }

  @Test
  void anEntryInFlightIsNeverRemovedEvenByItsKey() {
    provider.post(MailMessage.to(jobs).id("a").body("{}").build());
    Delivery held = provider.fetch(jobs, FetchOptions.leased()).get(0);

    assertThat(provider.removeQueued(jobs, held.key())).isZero();
    assertThat(provider.removeQueued(jobs, null)).isZero();

    assertThat(held.ack()).as("the copy in flight settles normally").isTrue();
    try (Jedis redis = RedisServer.plain()) {
      assertThat(redis.xlen(stream)).isEqualTo(1);
    }
  }

  @Test
  void aPurgeTakesEveryQueuedEntryAcrossPagesButNotTheOneInFlight() {
    List<MailMessage> many = new ArrayList<>();
    for (int i = 0; i < 1_200; i++) {
      many.add(MailMessage.to(jobs).id("m" + i).body("{}").build());
    }
    provider.postAll(many);
    Delivery held = provider.fetch(jobs, FetchOptions.leased()).get(0);

    assertThat(provider.removeQueued(jobs, null)).isEqualTo(1_199);

    assertThat(provider.status(jobs).unreadCount()).isZero();
    assertThat(held.message().id()).isEqualTo("m0");
    assertThat(held.ack()).isTrue();
  }
}
