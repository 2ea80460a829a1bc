package io.mailbox.ejb.metrics;

import io.mailbox.ejb.outbox.RelayListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The relay's counters and the outbox gauges, on the application registry ({@code /metrics}):
 * {@code outbox_published_total}, {@code outbox_publish_failures_total}, {@code
 * outbox_poisoned_total} (tagged {@code topic}, at most 100 distinct topics, then {@code other}),
 * {@code outbox_overlaps_total} (tagged {@code kind}: fenced, claim-lost, store-conflict), and the
 * gauges {@code outbox_pending_rows} and {@code outbox_oldest_pending_seconds}, refreshed whenever
 * the health check reads the table (as fresh as the last health poll).
 */
@ApplicationScoped
public class OutboxMetrics implements RelayListener {
  static final int MAX_TOPIC_TAGS = 100;

  @Inject MetricRegistry registry;

  private final Set<String> topics = ConcurrentHashMap.newKeySet();
  private final AtomicLong pendingRows = new AtomicLong();
  private final AtomicLong oldestPendingSeconds = new AtomicLong();
  private volatile boolean gaugesRegistered;

  @Override
  public void published(String topic) {
    registry.counter("outbox_published_total", topicTag(topic)).inc();
  }

  @Override
  public void publishFailed(String topic) {
    registry.counter("outbox_publish_failures_total", topicTag(topic)).inc();
  }

  @Override
  public void poisoned(String topic) {
    registry.counter("outbox_poisoned_total", topicTag(topic)).inc();
  }

  @Override
  public void overlap(String kind) {
    registry.counter("outbox_overlaps_total", new Tag("kind", kind)).inc();
  }

  /** Called by the health check with what it just read. */
  public void observed(long pending, long oldestPendingMillis) {
    pendingRows.set(pending);
    oldestPendingSeconds.set(oldestPendingMillis / 1000);
    if (!gaugesRegistered) {
      synchronized (this) {
        if (!gaugesRegistered) {
          registry.gauge("outbox_pending_rows", pendingRows, AtomicLong::get);
          registry.gauge("outbox_oldest_pending_seconds", oldestPendingSeconds, AtomicLong::get);
          gaugesRegistered = true;
        }
      }
    }
  }

  /** The topic as a tag, capped so a flood of topics cannot blow up the registry. */
  Tag topicTag(String topic) {
    if (topics.contains(topic) || (topics.size() < MAX_TOPIC_TAGS && topics.add(topic))) {
      return new Tag("topic", topic);
    }
    return new Tag("topic", "other");
  }
}
