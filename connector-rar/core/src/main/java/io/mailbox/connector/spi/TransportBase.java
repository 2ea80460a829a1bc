package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A convenience base for a transport: it keeps the clock, the scheduler and the kernel's {@link
 * TransportContext}, and offers them to the subclass under short names. It holds no rule.
 */
public abstract class TransportBase implements Transport {
  private final Clock clock;
  private final Scheduler scheduler;
  private volatile TransportContext context;

  protected TransportBase(Clock clock, Scheduler scheduler) {
    this.clock = clock;
    this.scheduler = scheduler;
  }

  @Override
  public final Clock clock() {
    return clock;
  }

  @Override
  public final Scheduler scheduler() {
    return scheduler;
  }

  @Override
  public final void attach(TransportContext context) {
    if (this.context != null && this.context != context) {
      throw new IllegalStateException(
          "The '" + scheme() + ":' transport is already bound to a provider; create one each.");
    }
    this.context = context;
  }

  protected final Instant now() {
    return clock.instant();
  }

  /** See {@link TransportContext#dispatch}. */
  protected final void dispatch(
      MailAddress topic, MailMessage copy, List<? extends Receiver> receivers) {
    context().dispatch(topic, copy, receivers);
  }

  /** See {@link TransportContext#giveUpQueued}. */
  protected final void giveUpQueued(
      MailAddress topic, MailMessage copy, String reason, int deliveries) {
    context().giveUpQueued(topic, copy, reason, deliveries);
  }

  /** See {@link TransportContext#broadcastsInFlight}. */
  protected final long broadcastsInFlight(MailAddress topic) {
    return context().broadcastsInFlight(topic);
  }

  /** See {@link TransportContext#deadLetterSource}; empty before the transport was bound. */
  protected final java.util.Optional<MailAddress> deadLetterSource(MailAddress address) {
    TransportContext bound = context;
    return bound == null ? java.util.Optional.empty() : bound.deadLetterSource(address);
  }

  /** See {@link TransportContext#deadLetterTopic}; empty before the transport was bound. */
  protected final java.util.Optional<MailAddress> deadLetterTopic(MailAddress address) {
    TransportContext bound = context;
    return bound == null ? java.util.Optional.empty() : bound.deadLetterTopic(address);
  }

  /** See {@link TransportContext#deliverySettleTimeout}. */
  protected final Duration deliverySettleTimeout() {
    return context().deliverySettleTimeout();
  }

  /** Whether the provider is started; false before the transport was bound. */
  protected final boolean isStarted() {
    TransportContext bound = context;
    return bound != null && bound.isStarted();
  }

  private TransportContext context() {
    TransportContext bound = context;
    if (bound == null) {
      throw new IllegalStateException(
          "The '" + scheme() + ":' transport is not bound: wrap it in a MailboxProvider first.");
    }
    return bound;
  }
}
