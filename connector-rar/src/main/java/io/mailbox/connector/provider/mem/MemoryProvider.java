package io.mailbox.connector.provider.mem;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxSubscriber;
import io.mailbox.connector.spi.MailboxProvider;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;

/**
 * The {@code mem:} provider: each address is a queue plus a list of subscribers in this JVM. Every
 * instance has its own state, so two adapters (or two tests) never see each other's mail.
 *
 * <p>A post goes to every subscriber present at that moment, or else to the queue; never both. A
 * broadcast is settled once all its deliveries have: if any was handled the message is done; if
 * none was and at least one asked for a retry, one copy goes back to the head of the queue; if all
 * failed fatally it is discarded (and logged).
 */
public final class MemoryProvider extends MailboxProvider {
  public static final String SCHEME = "mem";

  private static final Logger LOG = Logger.getLogger(MemoryProvider.class.getName());

  private final Map<MailAddress, Topic> topics = new ConcurrentHashMap<>();

  public MemoryProvider() {
    this(Clock.systemUTC());
  }

  public MemoryProvider(Clock clock) {
    super(clock);
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  protected void send(MailMessage stamped) {
    Topic topic = topic(stamped.to());
    List<MailboxSubscriber> receivers;
    synchronized (topic) {
      topic.lastActivity = now();
      receivers = List.copyOf(topic.subscribers);
      if (receivers.isEmpty()) {
        topic.queue.addLast(stamped);
        return;
      }
      topic.inFlight++;
    }
    broadcast(topic, stamped, receivers);
  }

  private void broadcast(Topic topic, MailMessage message, List<MailboxSubscriber> receivers) {
    List<CompletableFuture<Disposition>> deliveries = new ArrayList<>(receivers.size());
    for (MailboxSubscriber receiver : receivers) {
      deliveries.add(deliverTo(receiver, message).toCompletableFuture());
    }
    CompletableFuture.allOf(deliveries.toArray(CompletableFuture[]::new))
        .thenRun(
            () ->
                settleBroadcast(
                    topic, message, deliveries.stream().map(CompletableFuture::join).toList()));
  }

  private void settleBroadcast(Topic topic, MailMessage message, List<Disposition> outcomes) {
    synchronized (topic) {
      topic.inFlight--;
      if (outcomes.contains(Disposition.HANDLED)) {
        return;
      }
      if (outcomes.contains(Disposition.UNHANDLED)) {
        // Nobody handled it and somebody asked for a retry: one copy back to the head of the queue.
        topic.queue.addFirst(message);
        return;
      }
    }
    LOG.warning(() -> "Discarded " + message + ": every subscriber rejected it.");
  }

  @Override
  protected AutoCloseable openSubscription(MailAddress address, MailboxSubscriber subscriber) {
    Topic topic = topic(address);
    // Wrapped so that subscribing the same callback twice yields two independent subscriptions.
    MailboxSubscriber registration = subscriber::deliver;
    topic.subscribers.add(registration);
    return () -> topic.subscribers.remove(registration);
  }

  @Override
  protected Optional<MailMessage> take(MailAddress address) {
    Topic topic = topics.get(address);
    if (topic == null) {
      return Optional.empty();
    }
    synchronized (topic) {
      MailMessage next = topic.queue.pollFirst();
      if (next != null) {
        topic.lastActivity = now();
      }
      return Optional.ofNullable(next);
    }
  }

  @Override
  public AddressStatus status(MailAddress address) {
    Topic topic = topics.get(address);
    return topic == null ? AddressStatus.unknown(address) : topic.status(address);
  }

  @Override
  public Optional<List<AddressStatus>> enumerate() {
    return Optional.of(
        topics.entrySet().stream()
            .map(e -> e.getValue().status(e.getKey()))
            .sorted(Comparator.comparing(AddressStatus::address))
            .toList());
  }

  @Override
  protected void onStop(boolean purge) {
    if (purge) {
      topics.clear();
    }
  }

  private Topic topic(MailAddress address) {
    return topics.computeIfAbsent(address, ignored -> new Topic());
  }

  /** One address: its queue, its subscribers and its counters. Guarded by its own monitor. */
  private static final class Topic {
    final Deque<MailMessage> queue = new ArrayDeque<>();
    final List<MailboxSubscriber> subscribers = new CopyOnWriteArrayList<>();
    long inFlight;
    Instant lastActivity;

    synchronized AddressStatus status(MailAddress address) {
      return new AddressStatus(
          address,
          AddressState.ONLINE,
          true,
          queue.size(),
          inFlight,
          lastActivity,
          Map.of(SCHEME + ".subscriberCount", subscribers.size()));
    }
  }
}
