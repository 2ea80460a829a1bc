package io.mailbox.examples.provider;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.TransportBase;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * {@code tiny:} — the smallest useful transport: a queue per address in this process, leases in the
 * SPI's {@link LeaseTable}, subscribers pushed to. What it implements is what it declares ({@link
 * Recovering} brings leases and recover, {@link Enumerating} the listing; status every transport
 * has); the kernel owns the rest (send ids, rounds, retries, dead letters, capability checks).
 * Every method that touches an address's queue holds that address's monitor, so "to the subscribers
 * or to the queue" is one decision.
 */
public final class TinyProvider extends TransportBase implements Recovering, Enumerating {
  public static final String SCHEME = "tiny";

  /** One address: its queue and its subscribers. */
  private static final class Box {
    final Deque<MailMessage> queue = new ArrayDeque<>();
    final List<Receiver> subscribers = new CopyOnWriteArrayList<>();
    Instant lastActivity;
  }

  private final Map<MailAddress, Box> boxes = new ConcurrentHashMap<>();
  private final LeaseTable<Void> leases = new LeaseTable<>();
  private final int maxQueued;

  /** On its own scheduler, holding at most {@code maxQueued} messages per address. */
  public TinyProvider(int maxQueued, Scheduler scheduler) {
    super(Clock.systemUTC(), scheduler);
    this.maxQueued = maxQueued;
  }

  /** For tests: 10,000 messages per address, its own scheduler. */
  public TinyProvider() {
    this(10_000, new ExecutorScheduler());
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  private Box box(MailAddress address) {
    return boxes.computeIfAbsent(address, ignored -> new Box());
  }

  @Override
  public void send(MailAddress topic, MailMessage copy) {
    Box box = box(topic);
    List<Receiver> receivers;
    synchronized (box) {
      box.lastActivity = now();
      receivers = List.copyOf(box.subscribers);
      if (receivers.isEmpty()) {
        if (box.queue.size() >= maxQueued) {
          // Refused before anything changed: the caller sees a coded error, never a silent drop.
          throw new MailboxException(
              ErrorCode.CONNECTION_UNAVAILABLE,
              topic + " holds " + maxQueued + " messages (tinyMaxQueued); try again later");
        }
        box.queue.addLast(copy);
        return;
      }
    }
    dispatch(topic, copy, receivers); // outside the monitor: subscribers run arbitrary code
  }

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver subscription) {
    Box box = box(address);
    box.subscribers.add(subscription);
    return () -> box.subscribers.remove(subscription);
  }

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    Box box = box(address);
    synchronized (box) {
      if (lease != null) {
        putBackExpired(address, box);
      }
      List<MailMessage> taken = new ArrayList<>();
      while (taken.size() < limit && !box.queue.isEmpty()) {
        MailMessage copy = handOut.apply(box.queue.pollFirst());
        if (lease != null) {
          leases.put(copy.sendId().orElseThrow(), address, lease, copy, null);
        }
        taken.add(copy);
      }
      if (!taken.isEmpty()) {
        box.lastActivity = now();
      }
      return taken;
    }
  }

  @Override
  public Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
    return leases.release(address, key, leaseId).map(LeaseTable.Leased::copy);
  }

  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    String key = copy.sendId().orElseThrow();
    Box box = box(address);
    synchronized (box) {
      if (leases.holds(key)
          || box.queue.stream().anyMatch(queued -> key.equals(queued.sendId().orElse(null)))) {
        return false;
      }
      box.queue.addFirst(copy);
      return true;
    }
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    Box box = boxes.get(address);
    if (box == null) {
      return 0;
    }
    synchronized (box) {
      return putBackExpired(address, box);
    }
  }

  /** Expired hand-outs go back to the head of the queue, oldest first. Holds the box's monitor. */
  private int putBackExpired(MailAddress address, Box box) {
    List<LeaseTable.Leased<Void>> expired = leases.takeExpired(address, now());
    for (int i = expired.size() - 1; i >= 0; i--) {
      box.queue.addFirst(expired.get(i).copy());
    }
    return expired.size();
  }

  @Override
  public List<InFlightCopy> inFlightCopies(MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  @Override
  public long clearBacklog() {
    long dropped = leases.takeAll().size();
    for (Box box : boxes.values()) {
      synchronized (box) {
        dropped += box.queue.size();
        box.queue.clear();
      }
    }
    return dropped;
  }

  @Override
  public void stop(boolean purge) {
    if (purge) {
      clearBacklog();
    }
  }

  @Override
  public AddressStatus status(MailAddress address) {
    Box box = boxes.get(address);
    return box == null ? AddressStatus.unknown(address) : statusOf(address, box);
  }

  @Override
  public List<AddressStatus> enumerate() {
    return boxes.entrySet().stream()
        .map(entry -> statusOf(entry.getKey(), entry.getValue()))
        .sorted(Comparator.comparing(AddressStatus::address))
        .toList();
  }

  private AddressStatus statusOf(MailAddress address, Box box) {
    synchronized (box) {
      long inFlight = leases.census(address, now()).inFlight() + broadcastsInFlight(address);
      return new AddressStatus(
          address,
          AddressState.ONLINE,
          true,
          box.queue.size(),
          inFlight,
          box.lastActivity,
          Map.of());
    }
  }
}
