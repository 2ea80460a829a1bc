package io.mailbox.connector.provider.mem;

import io.mailbox.connector.api.MailAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The in-process "server" behind {@code mem:}: its topics (queues, leases, parked records,
 * subscribers). Providers on one bus see each other's mail; providers on different buses never do.
 *
 * <ul>
 *   <li>{@link #shared()}: one per class loader, what two mailboxes use to talk to each other;
 *   <li>{@link #scope(String)}: shared within a named scope, invisible across scopes (the scope
 *       registry is never emptied: use {@link #isolated()} for throwaway state);
 *   <li>{@link #isolated()}: private to one provider.
 * </ul>
 */
public final class MemoryBus {
  private static final MemoryBus SHARED = new MemoryBus();
  private static final Map<String, MemoryBus> SCOPES = new ConcurrentHashMap<>();

  private final Map<MailAddress, MemoryTopic> topics = new ConcurrentHashMap<>();
  // The same addresses in order, kept as topics are made (rarely: an address's first use), so a
  // listing needs no sort and the hot look-ups stay on the hash map.
  private final NavigableSet<MailAddress> ordered = new ConcurrentSkipListSet<>();

  private MemoryBus() {}

  public static MemoryBus shared() {
    return SHARED;
  }

  public static MemoryBus scope(String name) {
    return SCOPES.computeIfAbsent(name, ignored -> new MemoryBus());
  }

  public static MemoryBus isolated() {
    return new MemoryBus();
  }

  MemoryTopic topic(MailAddress address) {
    MemoryTopic existing = topics.get(address);
    if (existing != null) {
      return existing;
    }
    return topics.computeIfAbsent(
        address,
        created -> {
          ordered.add(created);
          return new MemoryTopic(created);
        });
  }

  /** The topic if it exists; reads never create one. */
  Optional<MemoryTopic> existing(MailAddress address) {
    return Optional.ofNullable(topics.get(address));
  }

  /** Every topic, with its address, in address order. */
  List<Map.Entry<MailAddress, MemoryTopic>> topics() {
    List<Map.Entry<MailAddress, MemoryTopic>> all = new ArrayList<>(ordered.size());
    for (MailAddress address : ordered) {
      MemoryTopic topic = topics.get(address);
      if (topic != null) {
        all.add(Map.entry(address, topic));
      }
    }
    return all;
  }

  /** Drops the queued and in-flight messages of one topic; returns how many. */
  public long clear(MailAddress address) {
    return existing(address).map(MemoryTopic::clearBacklog).orElse(0L);
  }
}
