package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.jca.MailboxResourceAdapter;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import java.io.PrintWriter;
import java.util.Set;
import javax.security.auth.Subject;

/**
 * Creates the physical connections the server pools. All connections are equivalent (no per-user
 * state), so any pooled one matches a request.
 */
public class MailboxManagedConnectionFactory
    implements ManagedConnectionFactory, ResourceAdapterAssociation {
  private static final long serialVersionUID = 1L;

  private transient MailboxResourceAdapter resourceAdapter;
  private transient PrintWriter logWriter;

  @Override
  public Object createConnectionFactory(ConnectionManager connectionManager) {
    return new MailboxConnectionFactoryImpl(this, connectionManager);
  }

  /** Outside a server (tests, tools): connections straight from this factory, unpooled. */
  @Override
  public Object createConnectionFactory() {
    return new MailboxConnectionFactoryImpl(this, new UnpooledConnectionManager());
  }

  @Override
  public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info)
      throws ResourceException {
    if (resourceAdapter == null) {
      throw new ResourceException(
          "The managed connection factory is not associated with the Mailbox adapter.");
    }
    return new MailboxManagedConnection(resourceAdapter);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public ManagedConnection matchManagedConnections(
      Set candidates, Subject subject, ConnectionRequestInfo info) {
    for (Object candidate : candidates) {
      if (candidate instanceof MailboxManagedConnection connection) {
        return connection;
      }
    }
    return null;
  }

  @Override
  public ResourceAdapter getResourceAdapter() {
    return resourceAdapter;
  }

  @Override
  public void setResourceAdapter(ResourceAdapter adapter) throws ResourceException {
    if (!(adapter instanceof MailboxResourceAdapter mailboxAdapter)) {
      throw new ResourceException(
          "Expected the Mailbox resource adapter, got " + adapter.getClass().getName());
    }
    this.resourceAdapter = mailboxAdapter;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    this.logWriter = out;
  }

  @Override
  public PrintWriter getLogWriter() {
    return logWriter;
  }

  // All factories of one adapter create equivalent connections.
  @Override
  public boolean equals(Object other) {
    return other instanceof MailboxManagedConnectionFactory that
        && that.resourceAdapter == resourceAdapter;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(resourceAdapter);
  }
}
