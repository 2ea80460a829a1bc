package io.mailbox.benchmarks.channels;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.RecoverResult;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.connector.kernel.Mailbox;
import java.util.List;
import java.util.Optional;
import javax.naming.Reference;

/**
 * A connection factory straight onto a kernel, without the resource adapter: in a server the
 * adapter's connection is the same thin view (plus transaction enlistment, which no benchmark
 * pipeline here uses).
 */
final class KernelConnections implements MailboxConnectionFactory {
  private final Mailbox kernel;

  KernelConnections(Mailbox kernel) {
    this.kernel = kernel;
  }

  @Override
  public MailboxConnection getConnection() {
    return new KernelConnection();
  }

  @Override
  public void setReference(Reference reference) {}

  @Override
  public Reference getReference() {
    return null;
  }

  private final class KernelConnection implements MailboxConnection {
    @Override
    public String post(MailMessage message) {
      kernel.post(message);
      return message.id();
    }

    @Override
    public List<String> postAll(List<MailMessage> messages) {
      kernel.postAll(messages);
      return messages.stream().map(MailMessage::id).toList();
    }

    @Override
    public Optional<MailMessage> fetch(MailAddress address) {
      return kernel.fetch(address);
    }

    @Override
    public List<Delivery> fetch(MailAddress address, FetchOptions options) {
      return kernel.fetch(address, options);
    }

    @Override
    public List<MailMessage> peek(MailAddress address, int limit) {
      return kernel.peek(address, limit);
    }

    @Override
    public boolean settle(MailAddress address, String key, String leaseId, Disposition how) {
      return kernel.settle(address, key, leaseId, how);
    }

    @Override
    public AddressStatus status(MailAddress address) {
      return kernel.status(address);
    }

    @Override
    public AutoCloseable subscribe(
        MailAddress address,
        java.util.function.Function<MailMessage, java.util.concurrent.CompletionStage<Void>>
            consumer) {
      return kernel.subscribeCountingRounds(address, consumer::apply);
    }

    @Override
    public Snapshot snapshot() {
      return kernel.snapshot();
    }

    @Override
    public RecoverResult recover(MailAddress address) {
      return kernel.recover(address);
    }

    // As the adapter's connection answers it: delivery=auto pushes where the provider can.
    @Override
    public Runnable onNextArrival(MailAddress address, Runnable signal) {
      return kernel.requireProvider(address.scheme()).onNextArrival(address, signal);
    }

    @Override
    public boolean can(String operation, MailAddress address) {
      return kernel.provider(address.scheme()).map(p -> p.can(operation, address)).orElse(false);
    }

    @Override
    public RecoverResult recover() {
      return kernel.recover();
    }

    @Override
    public List<LocatedCopy> locate(String messageId) {
      return kernel.locate(messageId);
    }

    @Override
    public List<MailMessage> peekParked(MailAddress address, int limit) {
      return kernel.peekParked(address, limit);
    }

    @Override
    public int purgeParked(MailAddress address, String key) {
      return kernel.purgeParked(address, key);
    }

    @Override
    public int removeQueued(MailAddress address, String key) {
      return kernel.removeQueued(address, key);
    }

    @Override
    public List<InFlightCopy> inFlight(MailAddress address, int limit) {
      return kernel.inFlight(address, limit);
    }

    @Override
    public Optional<MailAddress> deadLetterTopic(MailAddress address) {
      return kernel.deadLetterTopic(address);
    }

    @Override
    public long clear() {
      return kernel.clear();
    }

    @Override
    public void close() {}
  }
}
