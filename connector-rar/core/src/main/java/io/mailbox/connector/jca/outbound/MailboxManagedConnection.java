package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.jca.MailboxResourceAdapter;
import io.mailbox.connector.kernel.Mailbox;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;

/**
 * One pooled physical connection to the kernel. It owns the posts held for the transaction it is
 * enlisted in; its handles ({@link MailboxConnectionHandle}) delegate here.
 */
final class MailboxManagedConnection implements ManagedConnection {
  private final MailboxResourceAdapter adapter;
  private final Set<MailboxConnectionHandle> handles = ConcurrentHashMap.newKeySet();
  private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
  private final TransactionalPosts transactionalPosts = new TransactionalPosts();
  private final MailboxXAResource xaResource = new MailboxXAResource(this);
  private final MailboxLocalTransaction localTransaction = new MailboxLocalTransaction(this);
  private PrintWriter logWriter;

  MailboxManagedConnection(MailboxResourceAdapter adapter) {
    this.adapter = adapter;
  }

  Mailbox kernel() {
    return adapter.kernel();
  }

  java.time.Duration defaultAckTimeout() {
    return adapter.defaultAckTimeout();
  }

  /**
   * Posts now, or holds the post until the enlisted transaction commits. The recipient's scheme is
   * checked first either way, so a bad post fails inside the caller's transaction.
   */
  String post(MailMessage message) {
    Mailbox kernel = kernel();
    kernel.requireProvider(message.to().scheme());
    if (!transactionalPosts.holdIfActive(message)) {
      kernel.post(message);
    }
    return message.id();
  }

  /** As {@link #post}, for messages issued together: all checked, then held or handed over. */
  java.util.List<String> postAll(java.util.List<MailMessage> messages) {
    Mailbox kernel = kernel();
    messages.forEach(message -> kernel.requireProvider(message.to().scheme()));
    if (!transactionalPosts.holdAllIfActive(messages)) {
      kernel.postAll(messages);
    }
    return messages.stream().map(MailMessage::id).toList();
  }

  TransactionalPosts transactionalPosts() {
    return transactionalPosts;
  }

  /** Refuses when held posts could not be delivered now (adapter or a provider stopped). */
  void checkDeliverable() {
    Mailbox kernel = kernel();
    for (String scheme : kernel.schemes()) {
      if (!kernel.requireProvider(scheme).isStarted()) {
        throw new MailboxException(
            ErrorCode.NOT_STARTED, "The '" + scheme + ":' provider is stopped.");
      }
    }
  }

  /** The adapter's prepare log, where a yes vote writes the held posts. */
  PrepareLog prepareLog() {
    return adapter.prepareLog();
  }

  @Override
  public Object getConnection(Subject subject, ConnectionRequestInfo info) {
    MailboxConnectionHandle handle = new MailboxConnectionHandle(this);
    handles.add(handle);
    return handle;
  }

  @Override
  public void associateConnection(Object connection) throws ResourceException {
    if (!(connection instanceof MailboxConnectionHandle handle)) {
      throw new ResourceException(
          "Unexpected connection handle " + connection.getClass().getName());
    }
    handle.reassociate(this);
    handles.add(handle);
  }

  void detach(MailboxConnectionHandle handle) {
    handles.remove(handle);
  }

  /** Called by a handle's close(): tells the pool the physical connection is free again. */
  void handleClosed(MailboxConnectionHandle handle) {
    handles.remove(handle);
    ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_CLOSED);
    event.setConnectionHandle(handle);
    listeners.forEach(listener -> listener.connectionClosed(event));
  }

  @Override
  public void cleanup() {
    handles.forEach(MailboxConnectionHandle::invalidate);
    handles.clear();
  }

  @Override
  public void destroy() {
    cleanup();
    // Only what was never prepared is dropped: a prepared branch lives on in the prepare log.
    transactionalPosts.rollback();
  }

  @Override
  public void addConnectionEventListener(ConnectionEventListener listener) {
    listeners.add(listener);
  }

  @Override
  public void removeConnectionEventListener(ConnectionEventListener listener) {
    listeners.remove(listener);
  }

  @Override
  public XAResource getXAResource() {
    return xaResource;
  }

  @Override
  public LocalTransaction getLocalTransaction() {
    return localTransaction;
  }

  @Override
  public ManagedConnectionMetaData getMetaData() {
    return new ManagedConnectionMetaData() {
      @Override
      public String getEISProductName() {
        return "Mailbox";
      }

      @Override
      public String getEISProductVersion() {
        return MailboxManagedConnection.class.getPackage().getImplementationVersion();
      }

      @Override
      public int getMaxConnections() {
        return 0; // no limit of its own; the server's pool decides
      }

      @Override
      public String getUserName() {
        return null;
      }
    };
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    this.logWriter = out;
  }

  @Override
  public PrintWriter getLogWriter() {
    return logWriter;
  }
}
