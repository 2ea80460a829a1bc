package io.mailbox.benchmarks.soak;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Heap in use right after a forced full collection, as the collector itself reports it: the GC
 * notification of the collection {@code System.gc()} triggers, summed over the heap pools' usage
 * after it. Reading {@code MemoryMXBean} after {@code System.gc()} instead would count whatever was
 * allocated between the collection and the read (by this thread and the timer threads). When no
 * notification arrives within 10 s the probe falls back to that reading and says so in {@link
 * #method()}.
 */
final class HeapProbe implements AutoCloseable {
  private static final String CAUSE = "System.gc()";

  private final BlockingQueue<Long> afterGc = new LinkedBlockingQueue<>();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener;
  private boolean fellBack;

  HeapProbe() {
    Set<String> heapPools =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    listener =
        (notification, handback) -> {
          if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
              notification.getType())) {
            return;
          }
          GarbageCollectionNotificationInfo info =
              GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
          if (CAUSE.equals(info.getGcCause())) {
            afterGc.add(
                info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
                    .filter(pool -> heapPools.contains(pool.getKey()))
                    .mapToLong(pool -> pool.getValue().getUsed())
                    .sum());
          }
        };
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
  }

  /** Forces a full collection and returns the heap in use after it, in bytes. */
  long heapAfterGc() {
    afterGc.clear();
    System.gc();
    try {
      Long used = afterGc.poll(10, TimeUnit.SECONDS);
      if (used != null) {
        return used;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    fellBack = true;
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** How the figures were taken, for the report. */
  String method() {
    String collectors =
        ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName)
            .collect(Collectors.joining(" + "));
    return fellBack
        ? "heap used read from MemoryMXBean right after System.gc() (no GC notification came), "
            + collectors
        : "heap used after the System.gc() collection, from its GC notification, " + collectors;
  }

  @Override
  public void close() {
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // already gone: nothing to undo
      }
    }
  }
}
