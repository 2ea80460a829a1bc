package io.mailbox.examples.orders.shipping;

import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;

/** The (pretend) courier service's state: a demonstration switch, in memory. */
@Singleton
public class Courier {
  private volatile boolean courierDown;

  /** The courier service is down: shipping requests fail until it is back. */
  @Lock(LockType.WRITE)
  public void setCourierDown(boolean down) {
    courierDown = down;
  }

  @Lock(LockType.READ)
  public boolean courierDown() {
    return courierDown;
  }
}
