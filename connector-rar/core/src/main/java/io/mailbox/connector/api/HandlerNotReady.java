package io.mailbox.connector.api;

import jakarta.ejb.EJBException;

/**
 * Tells a handler that is not there (yet, or any more) from a handler that failed. While a server
 * starts, a channel can already hold messages when the beans its method calls are still being set
 * up: Payara answers {@code EJBException: Attempt to invoke when container is in Initializing},
 * WildFly an {@code EJBComponentUnavailableException}. That is "not now", never a reason to
 * dead-letter a message.
 *
 * <p>The container's own refusal is an {@link EJBException} (or a subclass) with no cause, while a
 * bean's failure reaches the caller wrapped, with the bean's exception as its cause; a bean can
 * also throw a bare {@code EJBException} itself, so only the refusals the servers are known to give
 * count: Payara's "when container is in ...", WildFly's {@code EJBComponentUnavailableException},
 * {@link jakarta.ejb.NoSuchEJBException}, and a {@link jakarta.ejb.CreateException} anywhere in the
 * chain (the container could not make a bean instance, e.g. while it stops).
 */
public final class HandlerNotReady {
  private static final int MAX_DEPTH = 16;

  private HandlerNotReady() {}

  public static boolean is(Throwable failure) {
    Throwable current = failure;
    for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
      if (isContainerRefusal(current)) {
        return true;
      }
      current = current.getCause();
    }
    return false;
  }

  /**
   * Only the refusals the containers are known to give, never any {@link EJBException} without a
   * cause: a handler may throw one itself ("order 42 not found"), or call a secured bean and get an
   * {@link jakarta.ejb.EJBAccessException}; counted as "not ready" they would be redelivered
   * forever and never parked.
   */
  private static boolean isContainerRefusal(Throwable failure) {
    if (failure instanceof jakarta.ejb.CreateException) {
      // The container could not make an instance of a bean the handler calls: Payara answers
      // "Could not create stateless EJB" while it stops (measured: a shipping request dead-lettered
      // as fatal on a SIGTERM in QuickStartCrashIT). Only containers raise it in EJB 3 code; one
      // that keeps failing (a @PostConstruct that always throws) still ends visibly: retried under
      // the retry policy, then dead-lettered or, at the delivery cap, parked.
      return true;
    }
    if (!(failure instanceof EJBException) || failure.getCause() != null) {
      return false;
    }
    if (failure instanceof jakarta.ejb.NoSuchEJBException) {
      return true; // the bean is not deployed (yet, or any more)
    }
    // WildFly: its own subclass, by name (no compile-time dependency on WildFly).
    if (failure.getClass().getName().endsWith(".EJBComponentUnavailableException")) {
      return true;
    }
    // Payara / GlassFish: "Attempt to invoke when container is in Initializing" (or STOPPED, ...).
    String message = failure.getMessage();
    return message != null && message.contains("when container is in ");
  }
}
