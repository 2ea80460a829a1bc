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

  /** The next call of {@code method} (for example {@code "claimAll"}) throws. */
  StoreFaults failOnce(String method) {
    armed.add(method);
    return this;
  }

  OutboxStore around(OutboxStore store) {
    return (OutboxStore)
        Proxy.newProxyInstance(
            OutboxStore.class.getClassLoader(),
            new Class<?>[] {OutboxStore.class},
            (proxy, method, args) -> {
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
