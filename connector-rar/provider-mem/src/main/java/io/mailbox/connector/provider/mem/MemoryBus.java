package io.mailbox.connector.provider.mem;

import io.mailbox.connector.api.MailAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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
    return topics.computeIfAbsent(address, MemoryTopic::new);
  }

  /** The topic if it exists; reads never create one. */
  Optional<MemoryTopic> existing(MailAddress address) {
    return Optional.ofNullable(topics.get(address));
  }

  /** Every topic, with its address. */
  List<Map.Entry<MailAddress, MemoryTopic>> topics() {
    return List.copyOf(topics.entrySet());
  }

  /** Drops the queued and in-flight messages of one topic; returns how many. */
  public long clear(MailAddress address) {
    return existing(address).map(MemoryTopic::clearBacklog).orElse(0L);
  }
}
