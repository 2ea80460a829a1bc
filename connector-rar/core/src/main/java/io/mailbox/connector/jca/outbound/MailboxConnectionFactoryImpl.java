package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import javax.naming.Reference;

/** The object bound in JNDI: asks the server's pool for a connection on every call. */
final class MailboxConnectionFactoryImpl implements MailboxConnectionFactory {
  private static final long serialVersionUID = 1L;

  private final MailboxManagedConnectionFactory managedFactory;
  private final transient ConnectionManager connectionManager;
  private Reference reference;

  MailboxConnectionFactoryImpl(
      MailboxManagedConnectionFactory managedFactory, ConnectionManager connectionManager) {
    this.managedFactory = managedFactory;
    this.connectionManager = connectionManager;
  }

  @Override
  public MailboxConnection getConnection() {
    try {
      return (MailboxConnection) connectionManager.allocateConnection(managedFactory, null);
    } catch (ResourceException e) {
      throw new MailboxException(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "No mailbox connection could be allocated (is the resource adapter deployed and started?): "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public void setReference(Reference reference) {
    this.reference = reference;
  }

  @Override
  public Reference getReference() {
    return reference;
  }
}
