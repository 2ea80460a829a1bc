package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import redis.clients.jedis.StreamEntryID;

/**
 * XACKs: one at a time where an entry is settled alone, one per stream for all that a reader's
 * batch settled at once (sent when the batch ends). Until then they are counted per address ({@link
 * #unsent}), so the status never shows an entry handled a moment ago as unread. An XACK that does
 * not reach Redis leaves the entry pending: it is reclaimed after the lease and handed out again
 * (at least once, never lost).
 */
final class Acknowledgements {
  private static final Logger LOG = Logger.getLogger(Acknowledgements.class.getName());

  private final GroupReads reads;
  private final Map<MailAddress, AtomicLong> unsent = new ConcurrentHashMap<>();
  private final ThreadLocal<Batch> batch = new ThreadLocal<>();

  /** The XACKs a batch collected, by stream, and their count by address. */
  private record Batch(Map<String, List<StreamEntryID>> ids, Map<MailAddress, Long> counts) {}

  Acknowledgements(GroupReads reads) {
    this.reads = reads;
  }

  long unsent(MailAddress address) {
    AtomicLong count = unsent.get(address);
    return count == null ? 0 : count.get();
  }

  void clear() {
    unsent.clear();
  }

  /** Acknowledges an entry now, or with its reader's batch when it is settled inside one. */
  void ack(MailAddress address, String key, StreamEntryID id) {
    Batch running = batch.get();
    if (running == null) {
      reads.ack(key, List.of(id));
      return;
    }
    unsent.computeIfAbsent(address, a -> new AtomicLong()).incrementAndGet();
    running.counts().merge(address, 1L, Long::sum);
    running.ids().computeIfAbsent(key, k -> new ArrayList<>()).add(id);
  }

  /** Runs a reader's batch of deliveries, then sends what it acknowledged, one XACK per stream. */
  void inBatch(Runnable deliveries) {
    Batch running = new Batch(new HashMap<>(), new HashMap<>());
    batch.set(running);
    try {
      deliveries.run();
    } finally {
      batch.remove();
      try {
        running.ids().forEach(reads::ack);
      } catch (RuntimeException e) {
        LOG.fine(() -> "A batch's XACKs did not reach Redis (reclaimed after the lease)");
      } finally {
        running.counts().forEach((address, count) -> unsent.get(address).addAndGet(-count));
      }
    }
  }
}
