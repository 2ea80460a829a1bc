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

  @jakarta.ejb.EJB private io.mailbox.ejb.audit.AuditLog audit;

  /** Returns expired leases of one address to its queue; audited with its result. */
  public io.mailbox.connector.api.RecoverResult recover(String actor, String address) {
    try (MailboxConnection connection = connections.getConnection()) {
      io.mailbox.connector.api.RecoverResult result = connection.recover(address);
      audit.record(
          actor,
          "address.recover",
          address,
          result.reclaimed(),
          result.supported()
              ? io.mailbox.ejb.audit.AuditEntry.Result.SUCCEEDED
              : io.mailbox.ejb.audit.AuditEntry.Result.FAILED);
      return result;
    }
  }

  /** Read-only copies of the records parked at an address, oldest first. */
  public java.util.List<io.mailbox.connector.api.MailMessage> parked(String address, int limit) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.peekParked(address, limit);
    }
  }

  /** Removes parked records (all of the address when {@code key} is null); audited. */
  public int purgeParked(String actor, String address, String key) {
    try (MailboxConnection connection = connections.getConnection()) {
      int removed = connection.purgeParked(address, key);
      audit.record(
          actor,
          key == null ? "parked.purge-all" : "parked.purge",
          key == null ? address : address + " " + key,
          removed,
          io.mailbox.ejb.audit.AuditEntry.Result.SUCCEEDED);
      return removed;
    }
  }

  /** One address; a malformed address is refused with its MBX code. */
  public AddressStatus status(String address) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.status(address);
    }
  }
}
