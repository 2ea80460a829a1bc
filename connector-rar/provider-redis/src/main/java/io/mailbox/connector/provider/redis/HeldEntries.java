package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.StreamEntryID;

/**
 * The delivered entries this process holds and has not settled (a subscriber's, or a fetch's once
 * its lease was released), by the copy's send id: what an XACK or a requeue acts on. Each is
 * pending with this process's consumer; {@link #contains} keeps the reclaim pass from taking back
 * what is held here, and the provider's sweep keeps them touched so others do not either.
 */
final class HeldEntries {
  /** A delivered entry: its address, its stream and its id. */
  record Held(MailAddress address, String key, StreamEntryID id) {}

  private final Map<String, Held> bySendId = new ConcurrentHashMap<>();
  private final Set<EntryRef> entries = ConcurrentHashMap.newKeySet();

  /** An entry of a stream, as a set member: no string built per lookup. */
  private record EntryRef(String key, StreamEntryID id) {}

  void hold(MailMessage copy, Held held) {
    bySendId.put(copy.sendId().orElseThrow(), held);
    entries.add(entryKey(held.key(), held.id()));
  }

  /** The held entry of {@code copy}, no longer held; empty when it was settled already. */
  Optional<Held> release(MailMessage copy) {
    Held released = bySendId.remove(copy.sendId().orElseThrow());
    if (released == null) {
      return Optional.empty();
    }
    entries.remove(entryKey(released.key(), released.id()));
    return Optional.of(released);
  }

  /** Forgets entry {@code id} of {@code key} wherever it is held (its hand-over failed). */
  void drop(String key, StreamEntryID id) {
    bySendId.values().removeIf(h -> h.key().equals(key) && h.id().equals(id));
    entries.remove(entryKey(key, id));
  }

  /** The held entry of {@code copy}, still held. */
  Optional<Held> get(MailMessage copy) {
    return Optional.ofNullable(bySendId.get(copy.sendId().orElseThrow()));
  }

  /** Whether entry {@code id} of {@code key} is held here (held, or leased: see the provider). */
  boolean contains(String key, StreamEntryID id) {
    return entries.contains(entryKey(key, id));
  }

  /** Marks an entry leased by a fetch as here, so the reclaim pass leaves it alone. */
  void markLeased(String key, StreamEntryID id) {
    entries.add(entryKey(key, id));
  }

  void unmarkLeased(String key, StreamEntryID id) {
    entries.remove(entryKey(key, id));
  }

  long count(MailAddress address) {
    return bySendId.values().stream().filter(h -> h.address().equals(address)).count();
  }

  Collection<Held> all() {
    return bySendId.values();
  }

  int size() {
    return bySendId.size();
  }

  void clear() {
    bySendId.clear();
    entries.clear();
  }

  private static EntryRef entryKey(String key, StreamEntryID id) {
    return new EntryRef(key, id);
  }
}
