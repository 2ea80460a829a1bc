package io.mailbox.benchmarks.channels;

import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.OperationNotSupportedException;
import javax.naming.spi.InitialContextFactory;

/**
 * The JNDI names the connector looks up in a server (its connection factory, the managed executor),
 * bound in this process instead: what a CDI SE process needs to run the connector unchanged. Only
 * {@code lookup(String)} and {@code close()} are served.
 */
public final class BenchNaming implements InitialContextFactory {
  private static final Map<String, Object> BOUND = new ConcurrentHashMap<>();

  static void bind(String name, Object value) {
    BOUND.put(name, value);
  }

  @Override
  public Context getInitialContext(Hashtable<?, ?> environment) {
    return (Context)
        Proxy.newProxyInstance(
            BenchNaming.class.getClassLoader(),
            new Class<?>[] {Context.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "lookup" -> {
                    Object found = BOUND.get(String.valueOf(args[0]));
                    if (found == null) {
                      throw new NameNotFoundException(String.valueOf(args[0]));
                    }
                    yield found;
                  }
                  case "close" -> null;
                  default -> throw new OperationNotSupportedException(method.getName());
                });
  }
}
