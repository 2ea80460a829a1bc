package io.mailbox.connector.api;

import jakarta.resource.Referenceable;
import java.io.Serializable;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The adapter's outbound entry point, bound in JNDI (by default {@code mailbox/ConnectionFactory};
 * see {@link #JNDI_NAME_PROPERTY}). Connections are pooled by the server and enlisted in the
 * caller's JTA transaction.
 */
public interface MailboxConnectionFactory extends Serializable, Referenceable {

  /** The JNDI name the server configuration in {@code server-config/} binds by default. */
  String DEFAULT_JNDI_NAME = "mailbox/ConnectionFactory";

  /**
   * The MicroProfile Config key naming where the factory is bound, when not {@link
   * #DEFAULT_JNDI_NAME}: an application-scoped name on Payara Server ({@code
   * java:app/mailbox/ConnectionFactory}, the EAR's own resource), {@code
   * java:/mailbox/ConnectionFactory} on WildFly.
   */
  String JNDI_NAME_PROPERTY = "mailbox.connection-factory";

  /**
   * Looks the factory up in JNDI.
   *
   * @throws MailboxException with {@link ErrorCode#CONNECTION_UNAVAILABLE} when nothing is bound
   *     there
   */
  static MailboxConnectionFactory lookup(String jndiName) {
    try {
      return (MailboxConnectionFactory) new InitialContext().lookup(jndiName);
    } catch (NamingException e) {
      throw new MailboxException(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "No mailbox connection factory at '"
              + jndiName
              + "': deploy the connector and its resource, or set "
              + JNDI_NAME_PROPERTY
              + " to where it is (server-config/)",
          e);
    }
  }

  /**
   * Hands out a connection handle.
   *
   * @throws MailboxException with {@link ErrorCode#CONNECTION_UNAVAILABLE} when the adapter is not
   *     running or the pool is exhausted
   */
  MailboxConnection getConnection();
}
