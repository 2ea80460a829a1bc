package io.mailbox.connector.jca.inbound;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Runs at most {@code max} deliveries of one endpoint at once; the rest wait in order. Closing it
 * hands back the waiting ones (never started) so they can return to their queue.
 */
final class ConcurrencyLimiter {
  private final int max;
  private final Deque<PendingDelivery> waiting = new ArrayDeque<>();
  private int running;
  private boolean closed;

  /** A delivery that can be started once, or given back unstarted. */
  interface PendingDelivery {
    void start();

    void giveBack();
  }

  ConcurrencyLimiter(int max) {
    this.max = max;
  }

  void submit(PendingDelivery delivery) {
    boolean startNow;
    boolean refuse;
    synchronized (this) {
      refuse = closed;
      startNow = !closed && running < max;
      if (startNow) {
        running++;
      } else if (!closed) {
        waiting.addLast(delivery);
      }
    }
    if (refuse) {
      delivery.giveBack();
    } else if (startNow) {
      delivery.start();
    }
  }

  /** One running delivery ended: start the next waiting one, if any. */
  void finished() {
    PendingDelivery next;
    synchronized (this) {
      next = closed ? null : waiting.pollFirst();
      if (next == null) {
        running--;
      }
    }
    if (next != null) {
      next.start();
    }
  }

  synchronized int running() {
    return running;
  }

  synchronized int capacity() {
    return closed ? 0 : Math.max(0, max - running);
  }

  /** Refuses further deliveries and gives every waiting one back. */
  void close() {
    List<PendingDelivery> givenBack;
    synchronized (this) {
      closed = true;
      givenBack = new ArrayList<>(waiting);
      waiting.clear();
    }
    givenBack.forEach(PendingDelivery::giveBack);
  }
}
