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
 * first. Each method is atomic (under the table's lock: its own monitor, or the monitor of the
 * transport structure that owns it, so a caller already holding that monitor re-enters it instead
 * of taking a second lock on every hand-out and settlement); a transport that must act together
 * with a table change (nack a delivery, rewrite a file) does so with what the method returned.
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
  private final Object lock;
  // No lease in the table ends before this (null: none ends). A bound, not the exact minimum: a
  // release leaves it where it was, and the next scan sets it again. So takeExpired, called before
  // every leased hand-out, scans only once a lease may have ended, not every entry every time.
  private Instant earliestExpiry;

  /** A table guarded by its own monitor. */
  public LeaseTable() {
    this.lock = this;
  }

  /**
   * A table guarded by {@code lock}'s monitor: for a table owned by a structure whose own
   * synchronized methods call it, so the nested call re-enters the monitor the caller holds.
   */
  public LeaseTable(Object lock) {
    this.lock = lock;
  }

  /** Records a hand-out (replacing an earlier lease of the same copy, which is then void). */
  public void put(String key, MailAddress address, Lease lease, MailMessage copy, H handle) {
    Leased<H> entry = new Leased<>(key, address, lease, copy, handle);
    synchronized (lock) {
      Instant expiry = lease.expiresAt();
      if (expiry != null && (earliestExpiry == null || expiry.isBefore(earliestExpiry))) {
        earliestExpiry = expiry;
      }
      if (byKey.put(key, entry) != null) {
        byKey.remove(key); // a new hand-out goes to the end of the hand-out order
        byKey.put(key, entry);
      }
    }
  }

  public boolean holds(String key) {
    synchronized (lock) {
      return byKey.containsKey(key);
    }
  }

  public Optional<Leased<H>> get(String key) {
    synchronized (lock) {
      return Optional.ofNullable(byKey.get(key));
    }
  }

  /**
   * Ends one hand-out: removes and returns the entry when {@code key} is in flight at {@code
   * address} under {@code leaseId}; empty (and nothing changed) otherwise.
   */
  public Optional<Leased<H>> release(MailAddress address, String key, String leaseId) {
    synchronized (lock) {
      Leased<H> held = byKey.get(key);
      if (held == null || !held.address().equals(address) || !held.lease().id().equals(leaseId)) {
        return Optional.empty();
      }
      byKey.remove(key);
      return Optional.of(held);
    }
  }

  /** Removes and returns the expired entries of {@code address}, oldest hand-out first. */
  public List<Leased<H>> takeExpired(MailAddress address, Instant now) {
    synchronized (lock) {
      if (earliestExpiry == null || now.isBefore(earliestExpiry)) {
        return List.of();
      }
      List<Leased<H>> expired = new ArrayList<>();
      Instant earliestLeft = null;
      for (Iterator<Leased<H>> it = byKey.values().iterator(); it.hasNext(); ) {
        Leased<H> held = it.next();
        if (held.address().equals(address) && held.lease().isExpiredAt(now)) {
          it.remove();
          expired.add(held);
        } else {
          Instant expiry = held.lease().expiresAt();
          if (expiry != null && (earliestLeft == null || expiry.isBefore(earliestLeft))) {
            earliestLeft = expiry;
          }
        }
      }
      earliestExpiry = earliestLeft;
      return expired;
    }
  }

  /** Removes and returns every entry, oldest hand-out first. */
  public List<Leased<H>> takeAll() {
    synchronized (lock) {
      List<Leased<H>> taken = new ArrayList<>(byKey.values());
      byKey.clear();
      return taken;
    }
  }

  /** The entries of {@code address} in hand-out order. */
  public List<Leased<H>> entries(MailAddress address) {
    synchronized (lock) {
      return byKey.values().stream().filter(h -> h.address().equals(address)).toList();
    }
  }

  /** At most {@code limit} copies in flight at {@code address}, oldest hand-out first. */
  public List<InFlightCopy> inFlight(MailAddress address, int limit) {
    synchronized (lock) {
      return byKey.values().stream()
          .filter(h -> h.address().equals(address))
          .limit(limit)
          .map(Leased::inFlight)
          .toList();
    }
  }

  /**
   * How many copies of {@code address} are in flight, how many overdue, and the oldest by how much.
   */
  public Census census(MailAddress address, Instant now) {
    synchronized (lock) {
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
          count,
          overdue,
          oldestExpiry == null ? Duration.ZERO : Duration.between(oldestExpiry, now));
    }
  }

  /** The addresses with a copy in flight. */
  public Set<MailAddress> addresses() {
    synchronized (lock) {
      Set<MailAddress> addresses = new LinkedHashSet<>();
      byKey.values().forEach(h -> addresses.add(h.address()));
      return addresses;
    }
  }

  /** Forgets every lease (the transport has dropped or returned the copies itself). */
  public void clear() {
    synchronized (lock) {
      byKey.clear();
    }
  }

  public int size() {
    synchronized (lock) {
      return byKey.size();
    }
  }
}
