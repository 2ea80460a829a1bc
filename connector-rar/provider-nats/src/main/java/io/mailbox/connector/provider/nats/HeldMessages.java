package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.nats.client.Message;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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

  void hold(MailMessage copy, MailAddress address, Message message) {
    held.put(copy.sendId().orElseThrow(), new Held(address, message));
  }

  /** The held message of {@code copy}, no longer held; empty when it was settled already. */
  Optional<Message> release(MailMessage copy) {
    Held released = held.remove(copy.sendId().orElseThrow());
    return released == null ? Optional.empty() : Optional.of(released.message());
  }

  /** Forgets {@code message} wherever it is held (its hand-over failed). */
  void drop(Message message) {
    held.values().removeIf(h -> h.message() == message);
  }

  long count(MailAddress address) {
    return held.values().stream().filter(h -> h.address().equals(address)).count();
  }

  int size() {
    return held.size();
  }

  /** Tells the server every held message is still being worked on (its ack wait starts again). */
  void keepAlive() {
    held.values().forEach(h -> h.message().inProgress());
  }

  void clear() {
    held.clear();
  }
}
