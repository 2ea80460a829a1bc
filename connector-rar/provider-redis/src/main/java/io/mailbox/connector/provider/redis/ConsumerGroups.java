package io.mailbox.connector.provider.redis;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.resps.StreamConsumerInfo;
import redis.clients.jedis.resps.StreamGroupInfo;

/**
 * The consumer group that reads every stream, and this process's consumer in it.
 *
 * <p>The group is made when a stream is first used here, before its first post, at the stream's end
 * ({@code XGROUP CREATE <key> <group> $ MKSTREAM}): it gets every entry added after it, none
 * before. Each start of the provider has a consumer of its own ({@code <host>-<pid>-<random>}), so
 * a restarted process never mistakes a dead one's pending entries for its own: they are reclaimed
 * after the lease. A consumer is deleted only when it has nothing pending; consumers of other
 * processes that have nothing pending and have been idle for an hour are swept.
 */
final class ConsumerGroups {
  static final long SWEEP_IDLE_MILLIS = 3_600_000;
  private static final Logger LOG = Logger.getLogger(ConsumerGroups.class.getName());

  private final RedisLink link;
  private final String group;
  private final long sweepIdleMillis;
  private final Set<String> ready = ConcurrentHashMap.newKeySet();
  private volatile String consumer = newConsumerName();

  ConsumerGroups(RedisLink link, String group) {
    this(link, group, SWEEP_IDLE_MILLIS);
  }

  /** With another idle time before the sweep deletes a consumer (tests: not an hour). */
  ConsumerGroups(RedisLink link, String group, long sweepIdleMillis) {
    this.link = link;
    this.group = group;
    this.sweepIdleMillis = sweepIdleMillis;
  }

  String group() {
    return group;
  }

  /** This start's consumer. */
  String consumer() {
    return consumer;
  }

  /** A new start: a new consumer name, and every group looked for again. */
  void restart() {
    consumer = newConsumerName();
    ready.clear();
  }

  /** Makes the group of {@code key} (and the stream) unless this process saw it already. */
  void ensure(String key) {
    if (ready.contains(key)) {
      return;
    }
    link.call(
        "create the consumer group of " + key,
        redis -> {
          try {
            redis.xgroupCreate(key, group, StreamEntryID.XGROUP_LAST_ENTRY, true);
          } catch (JedisDataException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("BUSYGROUP")) {
              throw e;
            }
          }
          return null;
        });
    ready.add(key);
  }

  /** The stream or its group is gone (Redis lost its data): make them again at the next use. */
  void forget(String key) {
    ready.remove(key);
  }

  /** The group's numbers for {@code key}; empty when the stream or the group does not exist. */
  Optional<StreamGroupInfo> info(String key) {
    return link.call(
        "describe the groups of " + key,
        redis -> {
          try {
            return redis.xinfoGroups(key).stream()
                .filter(info -> group.equals(info.getName()))
                .findFirst();
          } catch (JedisDataException noSuchKey) {
            return Optional.empty();
          }
        });
  }

  /** Deletes this process's consumer of {@code key} if nothing is pending with it. */
  void deleteOwnIfIdle(String key) {
    String own = consumer;
    try {
      link.call(
          "delete consumer " + own + " of " + key,
          redis -> {
            List<StreamConsumerInfo> consumers = redis.xinfoConsumers2(key, group);
            for (StreamConsumerInfo info : consumers) {
              if (own.equals(info.getName()) && info.getPending() == 0) {
                redis.xgroupDelConsumer(key, group, own);
              }
            }
            return null;
          });
    } catch (RuntimeException e) {
      LOG.fine(() -> "Kept consumer " + own + " of " + key + " (" + e.getMessage() + ")");
    }
  }

  /** Deletes other processes' consumers of {@code key} that hold nothing and idled an hour. */
  void sweep(String key) {
    link.call(
        "sweep the consumers of " + key,
        redis -> {
          for (StreamConsumerInfo info : redis.xinfoConsumers2(key, group)) {
            if (!info.getName().equals(consumer)
                && info.getPending() == 0
                && idleMillis(info) > sweepIdleMillis) {
              redis.xgroupDelConsumer(key, group, info.getName());
              LOG.fine(() -> "Swept idle consumer " + info.getName() + " of " + key);
            }
          }
          return null;
        });
  }

  /** Redis 7.2 counts inactivity since the last successful read; older servers since any. */
  private static long idleMillis(StreamConsumerInfo info) {
    Long inactive = info.getInactive();
    return inactive != null && inactive >= 0 ? inactive : info.getIdle();
  }

  private static String newConsumerName() {
    return Host.NAME
        + "-"
        + ManagementFactory.getRuntimeMXBean().getPid()
        + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The host name, looked up once (a lookup can wait on DNS), at the first consumer named. */
  private static final class Host {
    static final String NAME = lookUp();

    private static String lookUp() {
      try {
        return java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.io.IOException | RuntimeException e) {
        return "host";
      }
    }
  }
}
