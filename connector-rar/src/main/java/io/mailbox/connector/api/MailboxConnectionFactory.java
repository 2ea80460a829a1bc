package io.mailbox.connector.api;

import jakarta.resource.Referenceable;
import java.io.Serializable;

/**
 * The adapter's outbound entry point, bound in JNDI (by default {@code mailbox/ConnectionFactory}).
 * Connections are pooled by the server and enlisted in the caller's JTA transaction.
 */
public interface MailboxConnectionFactory extends Serializable, Referenceable {

  /** The JNDI name the server configuration in {@code server-config/} binds. */
  String DEFAULT_JNDI_NAME = "mailbox/ConnectionFactory";

  /**
   * Hands out a connection handle.
   *
   * @throws MailboxException with {@link ErrorCode#CONNECTION_UNAVAILABLE} when the adapter is not
   *     running or the pool is exhausted
   */
  MailboxConnection getConnection();
}
