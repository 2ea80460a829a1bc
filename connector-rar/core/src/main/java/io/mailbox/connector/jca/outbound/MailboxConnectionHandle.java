package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.RecoverResult;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.connector.kernel.Mailbox;
import java.util.List;
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
  public List<String> postAll(List<MailMessage> messages) {
    return open().postAll(messages);
  }

  @Override
  public Optional<MailMessage> fetch(MailAddress address) {
    return kernel().fetch(address);
  }

  @Override
  public List<Delivery> fetch(MailAddress address, FetchOptions options) {
    MailboxManagedConnection connection = open();
    FetchOptions effective =
        options.manualAck() && options.ackTimeout() == null
            ? new FetchOptions(options.limit(), true, connection.defaultAckTimeout(), false)
            : options;
    return connection.kernel().fetch(address, effective);
  }

  @Override
  public List<MailMessage> peek(MailAddress address, int limit) {
    return kernel().peek(address, limit);
  }

  @Override
  public boolean settle(MailAddress address, String key, String leaseId, Disposition disposition) {
    return kernel().settle(address, key, leaseId, disposition);
  }

  @Override
  public AddressStatus status(MailAddress address) {
    return kernel().status(address);
  }

  @Override
  public boolean can(String operation, MailAddress address) {
    return kernel().provider(address.scheme()).map(p -> p.can(operation, address)).orElse(false);
  }

  @Override
  public AutoCloseable subscribe(
      MailAddress address,
      java.util.function.Function<MailMessage, java.util.concurrent.CompletionStage<Void>>
          consumer) {
    return kernel().subscribeCountingRounds(address, consumer::apply);
  }

  @Override
  public Runnable onNextArrival(MailAddress address, Runnable signal) {
    return kernel().requireProvider(address.scheme()).onNextArrival(address, signal);
  }

  @Override
  public Snapshot snapshot() {
    return kernel().snapshot();
  }

  @Override
  public List<AddressTraffic> traffic() {
    return kernel().traffic();
  }

  @Override
  public MailMessage request(MailAddress address, MailMessage request, java.time.Duration timeout) {
    return kernel().request(address, request, timeout);
  }

  @Override
  public void reply(MailMessage request, String body, Throwable failure) {
    kernel().reply(request, body, failure);
  }

  @Override
  public RecoverResult recover(MailAddress address) {
    return kernel().recover(address);
  }

  @Override
  public RecoverResult recover() {
    return kernel().recover();
  }

  @Override
  public List<LocatedCopy> locate(String messageId) {
    return kernel().locate(messageId);
  }

  @Override
  public List<MailMessage> peekParked(MailAddress address, int limit) {
    return kernel().peekParked(address, limit);
  }

  @Override
  public List<io.mailbox.connector.api.InFlightCopy> inFlight(MailAddress address, int limit) {
    return kernel().inFlight(address, limit);
  }

  @Override
  public int removeQueued(MailAddress address, String key) {
    return kernel().removeQueued(address, key);
  }

  @Override
  public Optional<MailAddress> deadLetterTopic(MailAddress address) {
    return kernel().deadLetterTopic(address);
  }

  @Override
  public int purgeParked(MailAddress address, String key) {
    return kernel().purgeParked(address, key);
  }

  @Override
  public long clear() {
    return kernel().clear();
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

  private Mailbox kernel() {
    return open().kernel();
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
