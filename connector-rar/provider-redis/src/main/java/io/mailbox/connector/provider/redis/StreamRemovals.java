package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamGroupInfo;

/**
 * An operator's removal of queued entries (one by its copy key, or all): the entries the group was
 * never given, and those handed back (pending, idle past the lease), never one in flight.
 *
 * <p>The candidates are read and matched here, then deleted by one Lua script that checks each
 * again inside Redis, where no other command runs meanwhile: an entry after the group's last
 * delivered id is deleted; a pending one only while it is still idle past the lease (acknowledged,
 * then deleted); anything a reader took between the look and the script is left alone. So a removal
 * never races a consumer into losing or half-settling an entry.
 */
final class StreamRemovals {
  private static final int PAGE = 500;

  /**
   * KEYS[1] the stream; ARGV: our group, the lease in ms, then entry ids. Returns how many were
   * deleted. An id is deleted only when our group has it queued (after its last delivered id, or
   * pending and idle past the lease) and no group of the stream holds it in flight (pending and not
   * idle); the groups that have it pending acknowledge it first. Stream ids compare as
   * (milliseconds, sequence) pairs of unsigned 64-bit decimals, compared as text (shorter is
   * smaller): a Lua number would round a sequence above 2^53.
   */
  private static final String DELETE_IF_QUEUED =
      """
      local function parts(id)
        local dash = string.find(id, '-', 1, true)
        return string.sub(id, 1, dash - 1), string.sub(id, dash + 1)
      end
      local function below(a, b)
        if #a ~= #b then return #a < #b end
        return a < b
      end
      local function after(id, last)
        local ms, seq = parts(id)
        local lastMs, lastSeq = parts(last)
        if ms ~= lastMs then return below(lastMs, ms) end
        return below(lastSeq, seq)
      end
      local groups = {}
      for _, g in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
        local group = {}
        for i = 1, #g, 2 do group[g[i]] = g[i + 1] end
        table.insert(groups, group)
      end
      local lease = tonumber(ARGV[2])
      local removed = 0
      for i = 3, #ARGV do
        local id = ARGV[i]
        local queued, acks = false, {}
        for _, group in ipairs(groups) do
          local name = group['name']
          local pending = redis.call('XPENDING', KEYS[1], name, id, id, 1)
          local ours = name == ARGV[1]
          if #pending == 1 then
            if pending[1][3] < lease then queued = false; acks = nil; break end
            table.insert(acks, name)
            if ours then queued = true end
          elseif ours and after(id, group['last-delivered-id']) then
            queued = true
          end
        end
        if queued and acks then
          for _, name in ipairs(acks) do redis.call('XACK', KEYS[1], name, id) end
          removed = removed + redis.call('XDEL', KEYS[1], id)
        end
      end
      return removed
      """;

  private final RedisLink link;
  private final ConsumerGroups groups;
  private final StreamKeys keys;
  private final StreamViews views;
  private final long leaseMillis;

  StreamRemovals(
      RedisLink link, ConsumerGroups groups, StreamKeys keys, StreamViews views, long leaseMillis) {
    this.link = link;
    this.groups = groups;
    this.keys = keys;
    this.views = views;
    this.leaseMillis = leaseMillis;
  }

  /**
   * Removes the queued entry whose copy key is {@code sendId}, or every queued entry when null;
   * returns how many. Entries added after the removal began are left (a purge under steady traffic
   * ends).
   */
  int remove(MailAddress address, String sendId) {
    String key = keys.stream(address);
    Optional<StreamGroupInfo> group = groups.info(key);
    if (group.isEmpty()) {
      return 0;
    }
    int removed = removeHandedBack(address, key, sendId);
    StreamEntryID from = group.get().getLastDeliveredId();
    StreamEntryID end = lastEntry(key);
    while (end != null && from.compareTo(end) < 0) {
      List<StreamEntry> page = newEntries(key, from, end);
      if (page.isEmpty()) {
        break;
      }
      removed += delete(key, matching(address, key, page, sendId));
      from = page.get(page.size() - 1).getID();
    }
    return removed;
  }

  /** Entries handed back (pending, idle past the lease) and not held here, page by page. */
  private int removeHandedBack(MailAddress address, String key, String sendId) {
    int removed = 0;
    StreamEntryID from = StreamEntryID.MINIMUM_ID;
    while (from != null) {
      StreamViews.HandedBackPage page = views.handedBack(key, from, PAGE);
      List<StreamEntry> entries =
          page.entries().stream().map(StreamViews.HandedBack::entry).toList();
      removed += delete(key, matching(address, key, entries, sendId));
      from = page.next();
    }
    return removed;
  }

  private List<StreamEntry> newEntries(String key, StreamEntryID after, StreamEntryID end) {
    return link.call(
        "read the queued entries of " + key,
        redis -> redis.xrange(key, "(" + after, end.toString(), PAGE));
  }

  private StreamEntryID lastEntry(String key) {
    return link.call(
        "find the last entry of " + key,
        redis -> {
          List<StreamEntry> last = redis.xrevrange(key, "+", "-", 1);
          return last.isEmpty() ? null : last.get(0).getID();
        });
  }

  /** The ids of entries whose copy key is {@code sendId} (all when null). */
  private static List<String> matching(
      MailAddress address, String key, List<StreamEntry> entries, String sendId) {
    List<String> ids = new ArrayList<>();
    for (StreamEntry entry : entries) {
      MailMessage copy =
          StreamEntries.read(address, key, entry.getID(), entry.getFields(), 0).copy();
      if (sendId == null || copy.sendId().filter(sendId::equals).isPresent()) {
        ids.add(entry.getID().toString());
      }
    }
    return ids;
  }

  private int delete(String key, List<String> ids) {
    if (ids.isEmpty()) {
      return 0;
    }
    List<String> args = new ArrayList<>(ids.size() + 2);
    args.add(groups.group());
    args.add(Long.toString(leaseMillis));
    args.addAll(ids);
    Object removed =
        link.call(
            "remove queued entries of " + key,
            redis -> redis.eval(DELETE_IF_QUEUED, List.of(key), args));
    return ((Long) removed).intValue();
  }
}
