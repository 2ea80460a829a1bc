package io.mailbox.connector.api;

import jakarta.ejb.EJBException;

/**
 * Tells a handler that is not there (yet, or any more) from a handler that failed. While a server
 * starts, a channel can already hold messages when the beans its method calls are still being set
 * up: Payara answers {@code EJBException: Attempt to invoke when container is in Initializing},
 * WildFly an {@code EJBComponentUnavailableException}. That is "not now", never a reason to
 * dead-letter a message.
 *
 * <p>The test is portable: the container's own refusal is an {@link EJBException} (or a subclass)
 * with no cause, while a bean's failure reaches the caller wrapped, with the bean's exception as
 * its cause.
 */
public final class HandlerNotReady {
  private static final int MAX_DEPTH = 16;

  private HandlerNotReady() {}

  public static boolean is(Throwable failure) {
    Throwable current = failure;
    for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
      if (current instanceof EJBException && current.getCause() == null) {
        return true;
      }
      current = current.getCause();
    }
    return false;
  }
}
