package io.mailbox.connector.jca.testsupport;

import io.mailbox.connector.api.MailboxListener;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/** Stands in for the EJB container: each endpoint is a proxy that calls the given listener. */
public final class ListenerEndpointFactory implements MessageEndpointFactory {
  private final MailboxListener listener;
  private final AtomicInteger released = new AtomicInteger();

  public ListenerEndpointFactory(MailboxListener listener) {
    this.listener = listener;
  }

  /** How many endpoints were released after use (every created one must be). */
  public int releasedCount() {
    return released.get();
  }

  @Override
  public MessageEndpoint createEndpoint(javax.transaction.xa.XAResource xaResource) {
    return (MessageEndpoint)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {MessageEndpoint.class, MailboxListener.class},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == MailboxListener.class) {
                try {
                  return method.invoke(listener, args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              }
              if (method.getName().equals("release")) {
                released.incrementAndGet();
              }
              return null;
            });
  }

  @Override
  public MessageEndpoint createEndpoint(javax.transaction.xa.XAResource xaResource, long timeout)
      throws UnavailableException {
    return createEndpoint(xaResource);
  }

  @Override
  public boolean isDeliveryTransacted(Method method) {
    return false;
  }

  @Override
  public String getActivationName() {
    return "test-endpoint";
  }

  @Override
  public Class<?> getEndpointClass() {
    return MailboxListener.class;
  }
}
