package io.mailbox.examples.orders;

import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** What billing invoiced and shipping shipped, newest first (in memory: this is an example). */
@Singleton
public class OrderBook {
  private static final int KEEP = 100;

  private final Deque<String> invoiced = new ArrayDeque<>();
  private final Deque<String> shipped = new ArrayDeque<>();

  @Lock(LockType.WRITE)
  public void invoiced(String orderId) {
    remember(invoiced, orderId);
  }

  @Lock(LockType.WRITE)
  public void shipped(String orderId) {
    remember(shipped, orderId);
  }

  @Lock(LockType.READ)
  public List<String> invoiced() {
    return List.copyOf(invoiced);
  }

  @Lock(LockType.READ)
  public List<String> shipped() {
    return List.copyOf(shipped);
  }

  private static void remember(Deque<String> ids, String orderId) {
    ids.addFirst(orderId);
    while (ids.size() > KEEP) {
      ids.removeLast();
    }
  }
}
