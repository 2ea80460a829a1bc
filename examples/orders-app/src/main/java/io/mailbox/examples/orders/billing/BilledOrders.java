package io.mailbox.examples.orders.billing;

import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** What billing has received, newest first (kept in memory: this is an example). */
@Singleton
public class BilledOrders {
  private static final int KEEP = 100;

  private final Deque<String> orderIds = new ArrayDeque<>();

  @Lock(LockType.WRITE)
  public void add(String orderId) {
    orderIds.addFirst(orderId);
    while (orderIds.size() > KEEP) {
      orderIds.removeLast();
    }
  }

  @Lock(LockType.READ)
  public List<String> recent() {
    return List.copyOf(orderIds);
  }
}
