package io.mailbox.connector.spi;

import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The copies a transport has handed out under a lease and keeps track of in memory, because the
 * transport itself has no lease (a folder, an in-process queue, RabbitMQ's unacknowledged
 * deliveries): one table for all of them instead of a copy in each. Keyed by copy key ({@code
 * mbx-send-id}); kept in hand-out order, so what comes back after an expiry comes back oldest
 * first. Each method is atomic (the table's own monitor); a transport that must act together with a
 * table change (nack a delivery, rewrite a file) does so with what the method returned.
 *
 * @param <H> what the transport needs to settle the copy later (a file, a channel and a delivery
 *     tag), or {@link Void}
 */
public final class LeaseTable<H> {

  /**
   * One copy in flight.
   *
   * @param handle the transport's own reference to the copy; may be null
   */
  public record Leased<H>(
      String key, MailAddress address, Lease lease, MailMessage copy, H handle) {

    /** How an operator sees this copy. */
    public InFlightCopy inFlight() {
      return lease.inFlight(address, key, copy);
    }
  }

  /** What an address holds at one instant. */
  public record Census(long inFlight, long overdue, Duration oldestOverdue) {}

  private final Map<String, Leased<H>> byKey = new LinkedHashMap<>();

  /** Records a hand-out (replacing an earlier lease of the same copy, which is then void). */
  public synchronized void put(
      String key, MailAddress address, Lease lease, MailMessage copy, H handle) {
    byKey.remove(key); // a new hand-out goes to the end of the hand-out order
    byKey.put(key, new Leased<>(key, address, lease, copy, handle));
  }

  public synchronized boolean holds(String key) {
    return byKey.containsKey(key);
  }

  public synchronized Optional<Leased<H>> get(String key) {
    return Optional.ofNullable(byKey.get(key));
  }

  /**
   * Ends one hand-out: removes and returns the entry when {@code key} is in flight at {@code
   * address} under {@code leaseId}; empty (and nothing changed) otherwise.
   */
  public synchronized Optional<Leased<H>> release(MailAddress address, String key, String leaseId) {
    Leased<H> held = byKey.get(key);
    if (held == null || !held.address().equals(address) || !held.lease().id().equals(leaseId)) {
      return Optional.empty();
    }
    byKey.remove(key);
    return Optional.of(held);
  }

  /** Removes and returns the expired entries of {@code address}, oldest hand-out first. */
  public synchronized List<Leased<H>> takeExpired(MailAddress address, Instant now) {
    List<Leased<H>> expired = new ArrayList<>();
    for (Iterator<Leased<H>> it = byKey.values().iterator(); it.hasNext(); ) {
      Leased<H> held = it.next();
      if (held.address().equals(address) && held.lease().isExpiredAt(now)) {
        it.remove();
        expired.add(held);
      }
    }
    return expired;
  }

  /** Removes and returns every entry, oldest hand-out first. */
  public synchronized List<Leased<H>> takeAll() {
    List<Leased<H>> taken = new ArrayList<>(byKey.values());
    byKey.clear();
    return taken;
  }

  /** The entries of {@code address} in hand-out order. */
  public synchronized List<Leased<H>> entries(MailAddress address) {
    return byKey.values().stream().filter(h -> h.address().equals(address)).toList();
  }

  /** At most {@code limit} copies in flight at {@code address}, oldest hand-out first. */
  public synchronized List<InFlightCopy> inFlight(MailAddress address, int limit) {
    return byKey.values().stream()
        .filter(h -> h.address().equals(address))
        .limit(limit)
        .map(Leased::inFlight)
        .toList();
  }

  /**
   * How many copies of {@code address} are in flight, how many overdue, and the oldest by how much.
   */
  public synchronized Census census(MailAddress address, Instant now) {
    long count = 0;
    long overdue = 0;
    Instant oldestExpiry = null;
    for (Leased<H> held : byKey.values()) {
      if (!held.address().equals(address)) {
        continue;
      }
      count++;
      if (held.lease().isExpiredAt(now)) {
        overdue++;
        Instant expiry = held.lease().expiresAt();
        if (oldestExpiry == null || expiry.isBefore(oldestExpiry)) {
          oldestExpiry = expiry;
        }
      }
    }
    return new Census(
        count, overdue, oldestExpiry == null ? Duration.ZERO : Duration.between(oldestExpiry, now));
  }

  /** The addresses with a copy in flight. */
  public synchronized Set<MailAddress> addresses() {
    Set<MailAddress> addresses = new LinkedHashSet<>();
    byKey.values().forEach(h -> addresses.add(h.address()));
    return addresses;
  }

  /** Forgets every lease (the transport has dropped or returned the copies itself). */
  public synchronized void clear() {
    byKey.clear();
  }

  public synchronized int size() {
    return byKey.size();
  }
}
