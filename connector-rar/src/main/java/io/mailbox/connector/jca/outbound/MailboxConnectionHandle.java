package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.Snapshot;
import java.util.Optional;

/**
 * What the application holds: a thin, closeable view of a pooled {@link MailboxManagedConnection}.
 */
final class MailboxConnectionHandle implements MailboxConnection {
  private volatile MailboxManagedConnection managed;
  private volatile boolean closed;

  MailboxConnectionHandle(MailboxManagedConnection managed) {
    this.managed = managed;
  }

  @Override
  public String post(MailMessage message) {
    return open().post(message);
  }

  @Override
  public Optional<MailMessage> fetch(String address) {
    return open().kernel().fetch(address);
  }

  @Override
  public AddressStatus status(String address) {
    return open().kernel().status(address);
  }

  @Override
  public Snapshot snapshot() {
    return open().kernel().snapshot();
  }

  @Override
  public void close() {
    MailboxManagedConnection current = managed;
    if (!closed && current != null) {
      closed = true;
      current.handleClosed(this);
    }
  }

  /** The pool moved this handle to another physical connection (connection sharing). */
  synchronized void reassociate(MailboxManagedConnection other) {
    MailboxManagedConnection previous = managed;
    if (previous != null && previous != other) {
      previous.detach(this);
    }
    managed = other;
  }

  /** The physical connection was cleaned up under this handle: it can no longer be used. */
  void invalidate() {
    closed = true;
  }

  private MailboxManagedConnection open() {
    if (closed) {
      throw new MailboxException(
          ErrorCode.CONNECTION_CLOSED,
          "This mailbox connection is closed; get a new one from the connection factory.");
    }
    return managed;
  }
}
