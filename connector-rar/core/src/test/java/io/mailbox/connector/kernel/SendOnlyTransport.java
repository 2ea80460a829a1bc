package io.mailbox.connector.kernel;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.TransportBase;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A transport for tests of the kernel's send path: a subclass says what a send does; it has no
 * subscribers, queues nothing and knows no address.
 */
abstract class SendOnlyTransport extends TransportBase {
  private final String scheme;

  SendOnlyTransport(String scheme) {
    super(Clock.systemUTC(), new ExecutorScheduler());
    this.scheme = scheme;
  }

  @Override
  public String scheme() {
    return scheme;
  }

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver receiver) {
    return () -> {};
  }

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    return new ArrayList<>();
  }

  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    return false;
  }

  @Override
  public AddressStatus status(MailAddress address) {
    return AddressStatus.unknown(address);
  }

  @Override
  public long clearBacklog() {
    return 0;
  }
}
