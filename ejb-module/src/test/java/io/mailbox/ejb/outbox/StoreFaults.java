package io.mailbox.ejb.outbox;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An {@link OutboxStore} that throws once from each armed method, then behaves as the store it
 * wraps: a database that drops one statement (a lost connection, a deadlock victim).
 */
final class StoreFaults {
  private final Set<String> armed = ConcurrentHashMap.newKeySet();
  private final java.util.Map<String, Integer> conflicts = new ConcurrentHashMap<>();

  /** The next call of {@code method} (for example {@code "claimAll"}) throws. */
  StoreFaults failOnce(String method) {
    armed.add(method);
    return this;
  }

  /**
   * The next {@code times} calls of {@code method} are undone by the database as a deadlock victim
   * (SQLSTATE 40P01, wrapped as JPA wraps it), then it behaves.
   */
  StoreFaults conflict(String method, int times) {
    conflicts.put(method, times);
    return this;
  }

  OutboxStore around(OutboxStore store) {
    return (OutboxStore)
        Proxy.newProxyInstance(
            OutboxStore.class.getClassLoader(),
            new Class<?>[] {OutboxStore.class},
            (proxy, method, args) -> {
              if (conflicts.computeIfPresent(method.getName(), (m, n) -> n - 1) != null
                  && conflicts.get(method.getName()) >= 0) {
                throw new IllegalStateException(
                    "statement rolled back",
                    new java.sql.SQLException("ERROR: deadlock detected", "40P01"));
              }
              if (armed.remove(method.getName())) {
                throw new IllegalStateException("injected store fault in " + method.getName());
              }
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
