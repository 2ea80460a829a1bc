package io.mailbox.connector.jca.testsupport;

import io.mailbox.connector.api.MailboxDeliveryListener;
import io.mailbox.connector.api.MailboxListener;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for the EJB container: each endpoint is a proxy that calls the given listener (a {@link
 * MailboxListener} or a {@link MailboxDeliveryListener}).
 */
public final class ListenerEndpointFactory implements MessageEndpointFactory {
  private final Object listener;
  private final Class<?> listenerType;
  private final AtomicInteger released = new AtomicInteger();

  private ListenerEndpointFactory(Object listener, Class<?> listenerType) {
    this.listener = listener;
    this.listenerType = listenerType;
  }

  /** An MDB that settles by returning or throwing. */
  public static ListenerEndpointFactory forMessages(MailboxListener listener) {
    return new ListenerEndpointFactory(listener, MailboxListener.class);
  }

  /** A manual-ack MDB that settles each delivery itself. */
  public static ListenerEndpointFactory forDeliveries(MailboxDeliveryListener listener) {
    return new ListenerEndpointFactory(listener, MailboxDeliveryListener.class);
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
            new Class<?>[] {MessageEndpoint.class, listenerType},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == listenerType) {
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
    return listener.getClass(); // like a container: the bean's class, not its interface
  }
}
