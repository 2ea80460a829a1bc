package io.mailbox.connector.jca.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;

/**
 * The connection manager used outside a server: one physical connection per handle, destroyed when
 * the handle closes. No pooling and no transaction enlistment.
 */
final class UnpooledConnectionManager implements ConnectionManager {
  private static final long serialVersionUID = 1L;

  @Override
  public Object allocateConnection(ManagedConnectionFactory factory, ConnectionRequestInfo info)
      throws ResourceException {
    ManagedConnection connection = factory.createManagedConnection(null, info);
    connection.addConnectionEventListener(
        new ConnectionEventListener() {
          @Override
          public void connectionClosed(ConnectionEvent event) {
            try {
              connection.destroy();
            } catch (ResourceException e) {
              throw new IllegalStateException(e);
            }
          }

          @Override
          public void localTransactionStarted(ConnectionEvent event) {}

          @Override
          public void localTransactionCommitted(ConnectionEvent event) {}

          @Override
          public void localTransactionRolledback(ConnectionEvent event) {}

          @Override
          public void connectionErrorOccurred(ConnectionEvent event) {}
        });
    return connection.getConnection(null, info);
  }
}
