package io.mailbox.connector.provider.mem;

import io.mailbox.connector.api.CopyState;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.ArrivalSignals;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.mailbox.connector.spi.Leasing;
import io.mailbox.connector.spi.Receiver;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One {@code mem:} address: its queue, the copies in flight under a lease, its parked records and
 * its subscribers. All bookkeeping is keyed by copy key ({@code mbx-send-id}), never by the
 * sender's id. Every method holds this topic's monitor; callbacks never run under it.
 */
final class MemoryTopic {
  private final MailAddress address;
  private final Deque<MailMessage> queue = new ArrayDeque<>();
  private final LeaseTable<Void> inFlight = new LeaseTable<>(this); // re-entered, not a second lock
  private final Map<String, MailMessage> parked = new LinkedHashMap<>();
  private final List<Receiver> subscribers = new CopyOnWriteArrayList<>();
  private final ArrivalSignals arrivals = new ArrivalSignals(); // fetching consumers waiting
  private Instant lastActivity;
  private boolean known;

  private MailMessage parsedHead; // the head whose stamp parsedHeadSentAt holds
  private Instant parsedHeadSentAt;

  MemoryTopic(MailAddress address) {
    this.address = address;
  }

  /**
   * A snapshot of this topic's numbers at one instant.
   *
   * @param headSentAt the {@code mbx-sent-at} of the copy at the head of the queue; null when the
   *     queue is empty or the stamp is missing or unreadable
   */
  record Counts(
      boolean known,
      int unread,
      int inFlight,
      int overdue,
      Duration oldestOverdue,
      int parked,
      int subscribers,
      Instant lastActivity,
      Instant headSentAt) {}

  /**
   * The subscribers present now, or (when there are none) the copy appended to the queue and an
   * empty list: the decision and the enqueue are one step, so a message takes exactly one path.
   */
  synchronized List<Receiver> receiversOrEnqueue(MailMessage copy, Instant now) {
    known = true;
    lastActivity = now;
    if (subscribers.isEmpty()) {
      queue.addLast(copy);
      return List.of();
    }
    return List.copyOf(subscribers);
  }

  void subscribe(Receiver subscription) {
    synchronized (this) {
      known = true;
    }
    subscribers.add(subscription);
  }

  void unsubscribe(Receiver subscription) {
    subscribers.remove(subscription);
  }

  /**
   * Takes up to {@code limit} copies. With a lease the copies stay in flight under it, and expired
   * leases are reclaimed first (the lazy sweep); without one they are settled on the spot.
   */
  synchronized List<MailMessage> take(
      int limit, Lease lease, UnaryOperator<MailMessage> handOut, Instant now) {
    if (lease != null) {
      return takeLeased(limit, () -> lease, handOut, now).stream()
          .map(Leasing.LeasedCopy::copy)
          .toList();
    }
    // Sized for what can be taken: a fetch of one allocates no spare room.
    List<MailMessage> taken = new ArrayList<>(Math.min(limit, queue.size()));
    while (taken.size() < limit && !queue.isEmpty()) {
      taken.add(handOut.apply(queue.pollFirst()));
    }
    if (!taken.isEmpty()) {
      lastActivity = now;
    }
    return taken;
  }

  /**
   * Takes up to {@code limit} copies in one step, each in flight under the lease {@code leases}
   * makes for it; expired leases are reclaimed first (the lazy sweep).
   */
  synchronized List<Leasing.LeasedCopy> takeLeased(
      int limit, Supplier<Lease> leases, UnaryOperator<MailMessage> handOut, Instant now) {
    reclaimExpired(now);
    List<Leasing.LeasedCopy> taken = new ArrayList<>(Math.min(limit, queue.size()));
    while (taken.size() < limit && !queue.isEmpty()) {
      MailMessage copy = handOut.apply(queue.pollFirst());
      Lease lease = leases.get();
      inFlight.put(key(copy), address, lease, copy, null);
      taken.add(new Leasing.LeasedCopy(copy, lease));
    }
    if (!taken.isEmpty()) {
      lastActivity = now;
    }
    return taken;
  }

  /** The consumers waiting for this address's next queued copy. */
  ArrivalSignals arrivals() {
    return arrivals;
  }

  /**
   * Whether a copy is queued, asked for a consumer that will wait here otherwise: that makes the
   * address known, as a subscriber does.
   */
  synchronized boolean queuedForAWaitingConsumer() {
    known = true;
    return !queue.isEmpty();
  }

  synchronized boolean hasQueued() {
    return !queue.isEmpty();
  }

  synchronized List<MailMessage> peek(int limit) {
    return queue.stream().limit(limit).toList();
  }

  /** Ends one hand-out; empty when that copy is not in flight under that lease any more. */
  synchronized Optional<MailMessage> release(String key, String leaseId) {
    return inFlight.release(address, key, leaseId).map(LeaseTable.Leased::copy);
  }

  /** Puts a copy back at the head, unless that copy is already queued or in flight. */
  synchronized boolean requeue(MailMessage copy) {
    String key = key(copy);
    if (inFlight.holds(key) || queue.stream().anyMatch(queued -> key(queued).equals(key))) {
      return false;
    }
    queue.addFirst(copy);
    known = true;
    return true;
  }

  synchronized void park(MailMessage record) {
    known = true;
    parked.put(key(record), record);
  }

  /** Puts every expired lease's copy back at the head of the queue, oldest hand-out first. */
  synchronized int reclaimExpired(Instant now) {
    List<LeaseTable.Leased<Void>> reclaimed = inFlight.takeExpired(address, now);
    for (int i = reclaimed.size() - 1; i >= 0; i--) {
      queue.addFirst(reclaimed.get(i).copy());
    }
    return reclaimed.size();
  }

  synchronized List<MailMessage> parked(int limit) {
    return parked.values().stream().limit(limit).toList();
  }

  synchronized int removeParked(String key) {
    if (key == null) {
      int count = parked.size();
      parked.clear();
      return count;
    }
    return parked.remove(key) == null ? 0 : 1;
  }

  /** The copies in flight under a lease, in hand-out order. */
  synchronized List<io.mailbox.connector.api.InFlightCopy> inFlight(int limit) {
    return inFlight.inFlight(address, limit);
  }

  /** Removes the queued copy with this key, or every queued copy when {@code key} is null. */
  synchronized int removeQueued(String key) {
    if (key == null) {
      int count = queue.size();
      queue.clear();
      return count;
    }
    return queue.removeIf(copy -> key.equals(copy.sendId().orElse(null))) ? 1 : 0;
  }

  /** Drops queued and in-flight copies (an outstanding lease's disposition then returns false). */
  synchronized long clearBacklog() {
    long dropped = queue.size() + inFlight.takeAll().size();
    queue.clear();
    return dropped;
  }

  synchronized List<LocatedCopy> locate(String messageId) {
    List<LocatedCopy> found = new ArrayList<>();
    queue.stream()
        .filter(copy -> copy.id().equals(messageId))
        .forEach(
            copy ->
                found.add(new LocatedCopy(address, messageId, key(copy), null, CopyState.QUEUED)));
    inFlight.entries(address).stream()
        .filter(held -> held.copy().id().equals(messageId))
        .forEach(
            held ->
                found.add(
                    new LocatedCopy(
                        address, messageId, held.key(), held.lease().id(), CopyState.IN_FLIGHT)));
    parked.values().stream()
        .filter(copy -> copy.id().equals(messageId))
        .forEach(
            copy ->
                found.add(new LocatedCopy(address, messageId, key(copy), null, CopyState.PARKED)));
    return found;
  }

  synchronized Counts counts(Instant now) {
    LeaseTable.Census leased = inFlight.census(address, now);
    return new Counts(
        known,
        queue.size(),
        (int) leased.inFlight(),
        (int) leased.overdue(),
        leased.oldestOverdue(),
        parked.size(),
        subscribers.size(),
        lastActivity,
        headSentAt());
  }

  /**
   * Read here, not by the kernel's peek, and parsed once per head: a snapshot of 10,000 addresses
   * neither copies nor parses for it while their heads stay (measured: 14 → 39 ms with a parse per
   * reading).
   */
  private Instant headSentAt() {
    MailMessage head = queue.peekFirst();
    if (head != parsedHead) {
      parsedHead = head;
      try {
        parsedHeadSentAt =
            head == null
                ? null
                : head.header(SystemHeaders.SENT_AT).map(Instant::parse).orElse(null);
      } catch (DateTimeParseException e) {
        parsedHeadSentAt = null;
      }
    }
    return parsedHeadSentAt;
  }

  private static String key(MailMessage copy) {
    return copy.sendId()
        .orElseThrow(() -> new IllegalStateException(copy + " never passed the send boundary"));
  }
}
