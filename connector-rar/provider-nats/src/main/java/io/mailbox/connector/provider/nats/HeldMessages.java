package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.nats.client.Message;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The delivered messages this server holds and has not settled (a subscriber's, or a fetch's once
 * its lease was released), by the copy's send id: what an acknowledgement, a nak or a term acts on.
 * The server hands a held message out again only after its ack wait, which {@link #keepAlive} keeps
 * pushing back while it is held.
 */
final class HeldMessages {
  /** A delivered message and its address. */
  record Held(MailAddress address, Message message) {}

  private final Map<String, Held> held = new ConcurrentHashMap<>();
  // Kept beside the map: a reader asks for its address's count several times per batch, and
  // counting the map's entries each time cost a scan of up to a thousand per question.
  private final Map<MailAddress, AtomicLong> counts = new ConcurrentHashMap<>();

  void hold(MailMessage copy, MailAddress address, Message message) {
    // Counted before it is held: a settlement on another thread can then never take it off first,
    // and for an instant the count is one too high, which shows less unread, never a settled one.
    countOf(address).incrementAndGet();
    Held previous = held.put(copy.sendId().orElseThrow(), new Held(address, message));
    if (previous != null) {
      countOf(previous.address()).decrementAndGet();
    }
  }

  /** The held message of {@code copy}, no longer held; empty when it was settled already. */
  Optional<Message> release(MailMessage copy) {
    Held released = held.remove(copy.sendId().orElseThrow());
    if (released == null) {
      return Optional.empty();
    }
    countOf(released.address()).decrementAndGet();
    return Optional.of(released.message());
  }

  /** Forgets {@code message} wherever it is held (its hand-over failed). */
  void drop(Message message) {
    held.forEach(
        (sendId, entry) -> {
          if (entry.message() == message) {
            forget(sendId, entry);
          }
        });
  }

  long count(MailAddress address) {
    AtomicLong count = counts.get(address);
    return count == null ? 0 : count.get();
  }

  private AtomicLong countOf(MailAddress address) {
    return counts.computeIfAbsent(address, a -> new AtomicLong());
  }

  int size() {
    return held.size();
  }

  /** Tells the server every held message is still being worked on (its ack wait starts again). */
  void keepAlive() {
    held.values().forEach(h -> h.message().inProgress());
  }

  void clear() {
    held.forEach(this::forget);
  }

  /** Removes one entry, and counts it out only if this call removed it (never twice). */
  private void forget(String sendId, Held entry) {
    if (held.remove(sendId, entry)) {
      countOf(entry.address()).decrementAndGet();
    }
  }
}
