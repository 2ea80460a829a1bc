package io.mailbox.connector.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The signals waiting for the next copy queued at one address ({@link SignalsArrivals}), for a
 * transport that keeps its queue in this process ({@code mem:}, {@code file:}): one implementation
 * of the rules instead of one in each. The transport calls {@link #await} from {@code
 * onNextArrival}, and {@link #queued} after every step that queues a copy there (a post, a copy
 * given back, a reclaimed lease), outside its own locks. Signals run on the calling thread, each
 * once; one that throws is logged and dropped.
 */
public final class ArrivalSignals {
  private static final Logger LOG = Logger.getLogger(ArrivalSignals.class.getName());

  private final List<Runnable> waiting = new ArrayList<>();
  // Lets queued() skip the lock while nobody waits, which is nearly always. Written true before
  // await looks at the queue, and read by queued() after the copy is queued: either await sees the
  // copy, or queued() sees the flag and then, under the lock, the signal (no wake-up is lost).
  private volatile boolean anyWaiting;

  /**
   * Keeps {@code signal} for the next queued copy, or runs it at once when {@code queuedNow} says a
   * copy is queued already.
   *
   * @return cancels the signal if it has not run yet
   */
  public Runnable await(BooleanSupplier queuedNow, Runnable signal) {
    synchronized (this) {
      anyWaiting = true;
      boolean queued;
      try {
        queued = queuedNow.getAsBoolean();
      } catch (RuntimeException e) {
        anyWaiting = !waiting.isEmpty(); // nothing kept: posts need not look for it
        throw e;
      }
      if (!queued) {
        waiting.add(signal);
        return () -> cancel(signal);
      }
      anyWaiting = !waiting.isEmpty();
    }
    give(signal);
    return () -> {};
  }

  /**
   * A copy may have been queued: gives every waiting signal, once, if {@code queuedNow} says a copy
   * is queued. Asked only while someone waits, so a post pays nothing more than a volatile read
   * otherwise; a step that never queues anything must not call this (two idle consumers would wake
   * each other for ever).
   */
  public void queued(BooleanSupplier queuedNow) {
    if (!anyWaiting || !lookedQueued(queuedNow)) {
      return;
    }
    List<Runnable> due;
    synchronized (this) {
      due = List.copyOf(waiting);
      waiting.clear();
      anyWaiting = false;
    }
    due.forEach(ArrivalSignals::give);
  }

  /** A look that fails counts as "queued": a needless wake-up costs a fetch, a failure the post. */
  private static boolean lookedQueued(BooleanSupplier queuedNow) {
    try {
      return queuedNow.getAsBoolean();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "Looking at the queue failed; waking its consumers anyway", e);
      return true;
    }
  }

  private synchronized void cancel(Runnable signal) {
    waiting.remove(signal);
    anyWaiting = !waiting.isEmpty();
  }

  private static void give(Runnable signal) {
    try {
      signal.run();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "An arrival signal failed; its consumer polls instead", e);
    }
  }
}
