package io.mailbox.examples.orders.shipping;

import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** What shipping received, newest first (in memory: this part of the example keeps no table). */
@Singleton
public class ShippedOrders {
  private static final int KEEP = 100;

  private final Deque<String> shipped = new ArrayDeque<>();
  private volatile boolean courierDown;

  /** The courier service is down: shipping requests fail until it is back (a demo switch). */
  @Lock(LockType.WRITE)
  public void setCourierDown(boolean down) {
    courierDown = down;
  }

  @Lock(LockType.READ)
  public boolean courierDown() {
    return courierDown;
  }

  @Lock(LockType.WRITE)
  public void add(String orderId) {
    shipped.addFirst(orderId);
    while (shipped.size() > KEEP) {
      shipped.removeLast();
    }
  }

  @Lock(LockType.READ)
  public List<String> recent() {
    return List.copyOf(shipped);
  }
}
