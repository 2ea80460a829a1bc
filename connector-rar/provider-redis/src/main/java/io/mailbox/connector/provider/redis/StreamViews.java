package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.resps.StreamPendingEntry;

/**
 * Read-only looks at the streams, and the parked records: what is queued (peek), how many entries
 * the group has not been given yet (the lag), which streams of ours exist (for the snapshot), and
 * the parked records of an address, listed and removed. Nothing here hands an entry out.
 */
final class StreamViews {
  /** How far a lag Redis cannot say (after deletions) is counted by reading, at most. */
  static final int MAX_COUNTED_LAG = 10_000;

  private static final int PAGE = 500;

  private final RedisLink link;
  private final ConsumerGroups groups;
  private final StreamKeys keys;
  private final long leaseMillis;
  private final BiPredicate<String, StreamEntryID> heldHere;

  StreamViews(
      RedisLink link,
      ConsumerGroups groups,
      StreamKeys keys,
      long leaseMillis,
      BiPredicate<String, StreamEntryID> heldHere) {
    this.link = link;
    this.groups = groups;
    this.keys = keys;
    this.leaseMillis = leaseMillis;
    this.heldHere = heldHere;
  }

  /**
   * Up to {@code limit} queued copies, oldest first: entries handed back and waiting to be taken
   * again, then entries the group was never given.
   */
  List<MailMessage> peek(MailAddress address, int limit) {
    String key = keys.stream(address);
    Optional<StreamGroupInfo> group = groups.info(key);
    if (group.isEmpty()) {
      return List.of();
    }
    List<MailMessage> copies = new ArrayList<>();
    for (HandedBack waiting : handedBack(key, limit)) {
      copies.add(read(address, key, waiting.entry(), waiting.deliveries()).copy());
    }
    if (copies.size() < limit) {
      StreamEntryID after = group.get().getLastDeliveredId();
      for (StreamEntry entry :
          link.call(
              "peek " + key, redis -> redis.xrange(key, "(" + after, "+", limit - copies.size()))) {
        copies.add(read(address, key, entry, 0).copy());
      }
    }
    return copies;
  }

  /** An entry handed back, and how often it was delivered. */
  record HandedBack(StreamEntry entry, long deliveries) {}

  /** One page of entries handed back, and where the next page starts (null: none). */
  record HandedBackPage(List<HandedBack> entries, StreamEntryID next) {}

  /**
   * The first {@code limit} entries handed back ({@link #handedBack(String, StreamEntryID, int)}).
   */
  List<HandedBack> handedBack(String key, int limit) {
    return handedBack(key, StreamEntryID.MINIMUM_ID, limit).entries();
  }

  /**
   * Entries handed back from {@code from} on: pending with the group, idle past the lease (their
   * reader gave them back, or crashed), and not held here; Redis is asked for {@code limit} pending
   * entries (those held here are among them and left out).
   */
  HandedBackPage handedBack(String key, StreamEntryID from, int limit) {
    return link.call(
        "list the entries handed back in " + key,
        redis -> {
          List<HandedBack> found = new ArrayList<>();
          List<StreamPendingEntry> idle =
              redis.xpending(
                  key,
                  groups.group(),
                  XPendingParams.xPendingParams(from, StreamEntryID.MAXIMUM_ID, limit)
                      .idle(leaseMillis));
          for (StreamPendingEntry pending : idle) {
            if (!heldHere.test(key, pending.getID())) {
              for (StreamEntry entry : redis.xrange(key, pending.getID(), pending.getID(), 1)) {
                found.add(new HandedBack(entry, pending.getDeliveredTimes()));
              }
            }
          }
          StreamEntryID next = null;
          if (idle.size() == limit) {
            StreamEntryID last = idle.get(idle.size() - 1).getID();
            next = new StreamEntryID(last.getTime(), last.getSequence() + 1);
          }
          return new HandedBackPage(found, next);
        });
  }

  /** Entries after the group's last delivered one, counted (when Redis's own lag is unknown). */
  long countedLag(String key, StreamEntryID lastDelivered) {
    return link.call(
        "count the lag of " + key,
        redis -> {
          long counted = 0;
          String from = "(" + lastDelivered;
          while (counted < MAX_COUNTED_LAG) {
            List<StreamEntry> page = redis.xrange(key, from, "+", PAGE);
            counted += page.size();
            if (page.size() < PAGE) {
              break;
            }
            from = "(" + page.get(page.size() - 1).getID();
          }
          return counted;
        });
  }

  /** The addresses whose streams (or, under the policy, dead-letter streams) exist in Redis. */
  Set<MailAddress> existing() {
    return link.call(
        "list the streams",
        redis -> {
          Set<MailAddress> found = new TreeSet<>();
          String cursor = ScanParams.SCAN_POINTER_START;
          ScanParams match = new ScanParams().match(keys.pattern()).count(PAGE);
          do {
            ScanResult<String> page = redis.scan(cursor, match, "stream");
            page.getResult().forEach(key -> keys.address(key).ifPresent(found::add));
            cursor = page.getCursor();
          } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
          return found;
        });
  }

  /** Parked records of {@code address}, oldest first. */
  List<MailMessage> parked(MailAddress address, int limit) {
    String key = keys.parked(address);
    return link.call(
        "read the parked records of " + address,
        redis ->
            redis.xrange(key, "-", "+", limit).stream()
                .map(entry -> read(address, key, entry, 0).copy())
                .toList());
  }

  /** Removes the parked record with send id {@code sendId}, or all when null; returns how many. */
  int removeParked(MailAddress address, String sendId) {
    String key = keys.parked(address);
    return link.call(
        "remove parked records of " + address,
        redis -> {
          if (sendId == null) {
            long length = redis.xlen(key);
            redis.del(key);
            return (int) length;
          }
          int removed = 0;
          String from = "-";
          List<StreamEntry> page;
          do {
            page = redis.xrange(key, from, "+", PAGE);
            for (StreamEntry entry : page) {
              if (sendId.equals(entry.getFields().get(SystemHeaders.SEND_ID))) {
                removed += (int) redis.xdel(key, entry.getID());
              }
            }
            if (!page.isEmpty()) {
              from = "(" + page.get(page.size() - 1).getID();
            }
          } while (page.size() == PAGE);
          return removed;
        });
  }

  /** Appends a parked record to {@code parkedKey} (no group reads it). */
  void park(String parkedKey, Map<String, String> fields) {
    link.call(
        "park a record in " + parkedKey,
        redis -> redis.xadd(parkedKey, XAddParams.xAddParams(), fields));
  }

  /** Deletes a stream with its group; returns how many entries it had. */
  long delete(String key) {
    return link.call(
        "delete " + key,
        redis -> {
          long length = redis.xlen(key);
          redis.del(key);
          return length;
        });
  }

  /** The length of a stream; zero when it does not exist. */
  long length(String key) {
    return link.call(
        "measure " + key,
        redis -> {
          try {
            return redis.xlen(key);
          } catch (JedisDataException notAStream) {
            return 0L;
          }
        });
  }

  private static StreamEntries.Read read(
      MailAddress address, String key, StreamEntry entry, long deliveries) {
    return StreamEntries.read(address, key, entry.getID(), entry.getFields(), deliveries);
  }
}
