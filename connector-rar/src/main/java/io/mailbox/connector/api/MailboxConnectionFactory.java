package io.mailbox.connector.api;

import jakarta.resource.Referenceable;
import java.io.Serializable;

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
   * Hands out a connection handle.
   *
   * @throws MailboxException with {@link ErrorCode#CONNECTION_UNAVAILABLE} when the adapter is not
   *     running or the pool is exhausted
   */
  MailboxConnection getConnection();
}
