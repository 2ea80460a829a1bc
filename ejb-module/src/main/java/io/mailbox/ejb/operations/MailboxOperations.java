package io.mailbox.ejb.operations;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.Snapshot;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * Reads mailbox state for the console and the admin API through the adapter's connection factory.
 * Reads need no transaction.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class MailboxOperations {

  @Resource(lookup = MailboxConnectionFactory.DEFAULT_JNDI_NAME)
  private MailboxConnectionFactory connections;

  /** Every address of every provider, sorted. */
  public Snapshot snapshot() {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.snapshot();
    }
  }

  /** One address; a malformed address is refused with its MBX code. */
  public AddressStatus status(String address) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.status(address);
    }
  }
}
