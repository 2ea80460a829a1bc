package io.mailbox.connector.provider.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XClaimParams;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamPendingEntry;

/**
 * How this process takes entries from a stream's group: new ones ({@code XREADGROUP ... >}), and
 * pending ones idle longer than the lease ({@code XPENDING ... IDLE} then {@code XCLAIM}, which
 * claims atomically: an entry another consumer touched meanwhile is not taken). A reclaim pass
 * reads at most {@value #RECLAIM_PAGE} pending entries from a cursor that moves on each pass and
 * starts over at the end, so entries later in the list cannot starve behind ones that keep coming
 * back. Entries held here are left alone.
 *
 * <p>A requeue makes an entry idle as if its lease had run out after a delay ({@link #requeue}):
 * the next pass of any process after that delay hands it out again, with its delivery count up.
 */
final class GroupReads {
  static final int RECLAIM_PAGE = 10;
  private static final long PASS_EVERY_NANOS = 1_000_000_000L;

  private final RedisLink link;
  private final ConsumerGroups groups;
  private final long leaseMillis;
  private final BiPredicate<String, StreamEntryID> heldHere;
  private final Map<String, StreamEntryID> cursors = new ConcurrentHashMap<>();
  private final Map<String, Long> nextPass = new ConcurrentHashMap<>(); // nanoTime, by stream

  GroupReads(
      RedisLink link,
      ConsumerGroups groups,
      long leaseMillis,
      BiPredicate<String, StreamEntryID> heldHere) {
    this.link = link;
    this.groups = groups;
    this.leaseMillis = leaseMillis;
    this.heldHere = heldHere;
  }

  /** An entry taken, and how often it has been delivered with this delivery. */
  record Taken(StreamEntry entry, long deliveries) {}

  /** Up to {@code limit} entries never delivered to the group, without waiting. */
  List<Taken> takeNew(String key, int limit) {
    return recoveringGroup(
        key,
        () ->
            link.call(
                "read " + key,
                redis ->
                    taken(
                        redis.xreadGroup(
                            groups.group(),
                            groups.consumer(),
                            XReadGroupParams.xReadGroupParams().count(limit),
                            Map.of(key, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY)))));
  }

  /**
   * Asks for new entries on a reader's own connection, Redis waiting up to {@code blockMillis} for
   * some; {@link #answerNew} takes the answer.
   */
  void sendNew(ReaderConnection connection, String key, int limit, int blockMillis) {
    connection.sendReadNew(groups.group(), groups.consumer(), key, limit, blockMillis);
  }

  /**
   * The entries the read sent on {@code connection} brought. None when Redis lost the group (it
   * restarted without its data: the group is made again and the next read finds it), or when the
   * stream was deleted while the read waited ({@code UNBLOCKED}: the next read finds the group gone
   * and makes it again).
   */
  List<Taken> answerNew(ReaderConnection connection, String key) {
    try {
      return taken(connection.answer());
    } catch (RuntimeException e) {
      if (RedisLink.isRefusal(e, "UNBLOCKED")) {
        groups.forget(key);
        return List.of();
      }
      if (!RedisLink.isRefusal(e, "NOGROUP")) {
        throw e;
      }
      groups.forget(key);
      groups.ensure(key);
      return List.of();
    }
  }

  /**
   * A reclaim pass when one is due for {@code key}: a second after the last, at once after a pass
   * that found a full page (more may be idle: a crashed server's backlog comes back as fast as it
   * is handled, not a page a second), or when an entry this process handed back is due.
   */
  List<Taken> reclaimIfDue(String key, int limit) {
    long now = System.nanoTime();
    Long due = nextPass.get(key);
    if (due != null && due - now > 0) {
      return List.of();
    }
    nextPass.put(key, now + PASS_EVERY_NANOS);
    return reclaim(key, limit);
  }

  /**
   * One reclaim pass: up to {@code limit} (at most {@value #RECLAIM_PAGE}) entries idle longer than
   * the lease.
   */
  List<Taken> reclaim(String key, int limit) {
    int page = Math.min(RECLAIM_PAGE, limit);
    return recoveringGroup(
        key,
        () ->
            link.call(
                "reclaim idle entries of " + key,
                redis -> {
                  StreamEntryID from = cursors.getOrDefault(key, StreamEntryID.MINIMUM_ID);
                  List<StreamPendingEntry> idle =
                      new ArrayList<>(pendingIdle(redis, key, from, page));
                  if (idle.size() < page && !from.equals(StreamEntryID.MINIMUM_ID)) {
                    // The end of the list: wrap around in the same pass.
                    for (StreamPendingEntry wrapped :
                        pendingIdle(redis, key, StreamEntryID.MINIMUM_ID, page - idle.size())) {
                      if (wrapped.getID().compareTo(from) < 0) {
                        idle.add(wrapped);
                      }
                    }
                  }
                  moveCursor(key, idle, page);
                  if (idle.size() >= page) {
                    nextPass.put(key, System.nanoTime()); // a full page: more may be idle
                  }
                  Map<StreamEntryID, Long> delivered = new java.util.LinkedHashMap<>();
                  for (StreamPendingEntry pending : idle) {
                    if (!heldHere.test(key, pending.getID())) {
                      delivered.put(pending.getID(), pending.getDeliveredTimes() + 1);
                    }
                  }
                  if (delivered.isEmpty()) {
                    return List.<Taken>of();
                  }
                  List<StreamEntry> claimed =
                      redis.xclaim(
                          key,
                          groups.group(),
                          groups.consumer(),
                          leaseMillis,
                          XClaimParams.xClaimParams(),
                          delivered.keySet().toArray(StreamEntryID[]::new));
                  List<Taken> taken = new ArrayList<>(claimed.size());
                  for (StreamEntry entry : claimed) {
                    if (entry != null && entry.getFields() != null) { // null: trimmed meanwhile
                      taken.add(new Taken(entry, delivered.getOrDefault(entry.getID(), 2L)));
                    }
                  }
                  return taken;
                }));
  }

  private List<StreamPendingEntry> pendingIdle(
      RedisClient redis, String key, StreamEntryID from, int count) {
    return redis.xpending(
        key,
        groups.group(),
        XPendingParams.xPendingParams(from, StreamEntryID.MAXIMUM_ID, count).idle(leaseMillis));
  }

  /** The next pass starts after the last entry seen, or over when this page was the last. */
  private void moveCursor(String key, List<StreamPendingEntry> idle, int page) {
    if (idle.size() < page) {
      cursors.remove(key);
    } else {
      StreamEntryID last = idle.get(idle.size() - 1).getID();
      cursors.put(key, new StreamEntryID(last.getTime(), last.getSequence() + 1));
    }
  }

  /**
   * Hands an entry back: idle as if its lease ran out {@code delayMillis} from now, so the next
   * reclaim pass after that takes it (its delivery count is not raised by this).
   */
  void requeue(String key, StreamEntryID id, long delayMillis) {
    requeue(key, List.of(id), delayMillis);
  }

  /** {@link #requeue(String, StreamEntryID, long)} of several entries, in one command. */
  void requeue(String key, List<StreamEntryID> ids, long delayMillis) {
    if (ids.isEmpty()) {
      return;
    }
    touch(key, ids, Math.max(0, leaseMillis - delayMillis));
    long due = System.nanoTime() + Math.min(delayMillis, leaseMillis) * 1_000_000;
    nextPass.merge(key, due, (a, b) -> a - b < 0 ? a : b);
  }

  /** Resets the idle time of entries held here, so no other process reclaims them. */
  void keepAlive(String key, List<StreamEntryID> ids) {
    touch(key, ids, 0);
  }

  private void touch(String key, List<StreamEntryID> ids, long idleMillis) {
    if (ids.isEmpty()) {
      return;
    }
    link.call(
        "touch pending entries of " + key,
        redis ->
            redis.xclaimJustId(
                key,
                groups.group(),
                groups.consumer(),
                0,
                XClaimParams.xClaimParams().idle(idleMillis),
                ids.toArray(StreamEntryID[]::new)));
  }

  /** Settles entries: removed from the group's pending list. */
  void ack(String key, List<StreamEntryID> ids) {
    if (!ids.isEmpty()) {
      link.call(
          "acknowledge entries of " + key,
          redis -> redis.xack(key, groups.group(), ids.toArray(StreamEntryID[]::new)));
    }
  }

  /**
   * Runs a read; when Redis says the group or the stream is gone (it restarted without its data),
   * makes them again and reads once more.
   */
  private List<Taken> recoveringGroup(String key, java.util.function.Supplier<List<Taken>> read) {
    try {
      return read.get();
    } catch (RuntimeException e) {
      if (!RedisLink.isRefusal(e, "NOGROUP")) {
        throw e;
      }
      groups.forget(key);
      groups.ensure(key);
      return read.get();
    }
  }

  private static List<Taken> taken(List<Map.Entry<String, List<StreamEntry>>> answer) {
    if (answer == null || answer.isEmpty()) {
      return List.of();
    }
    List<Taken> taken = new ArrayList<>();
    for (Map.Entry<String, List<StreamEntry>> stream : answer) {
      for (StreamEntry entry : stream.getValue()) {
        if (entry.getFields() != null) {
          taken.add(new Taken(entry, 1));
        }
      }
    }
    return taken;
  }
}
