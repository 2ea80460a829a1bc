package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxDeliveryListener;
import io.mailbox.connector.api.MailboxListener;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.spi.Scheduler;
import jakarta.resource.NotSupportedException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkManager;

/**
 * One active MDB endpoint. Two shapes, chosen by the activation's {@code manualAck}:
 *
 * <ul>
 *   <li>{@link SubscriptionActivation}: a kernel subscription; the MDB's return settles handled, an
 *       exception unhandled (retriable) or discard;
 *   <li>{@link LeasedFetchActivation}: leased fetches the MDB settles itself.
 * </ul>
 *
 * Both run application code only on WorkManager threads, never on the poster's thread (which may be
 * committing a transaction), and never more than {@code maxConcurrency} at once.
 */
public abstract class EndpointActivation {
  protected final Mailbox kernel;
  protected final WorkManager workManager;
  protected final MessageEndpointFactory endpointFactory;
  protected final MailboxActivationSpec spec;
  protected final ConcurrencyLimiter limiter;

  EndpointActivation(
      Mailbox kernel,
      WorkManager workManager,
      MessageEndpointFactory endpointFactory,
      MailboxActivationSpec spec) {
    this.kernel = kernel;
    this.workManager = workManager;
    this.endpointFactory = endpointFactory;
    this.spec = spec;
    this.limiter = new ConcurrencyLimiter(spec.getMaxConcurrency());
  }

  /**
   * The activation for an endpoint; refuses an MDB whose listener interface does not match its
   * {@code manualAck} setting.
   */
  public static EndpointActivation create(
      Mailbox kernel,
      WorkManager workManager,
      Scheduler scheduler,
      MessageEndpointFactory endpointFactory,
      MailboxActivationSpec spec)
      throws NotSupportedException {
    Class<?> endpointClass = endpointFactory.getEndpointClass();
    boolean manual = Boolean.TRUE.equals(spec.getManualAck());
    Class<?> needed = manual ? MailboxDeliveryListener.class : MailboxListener.class;
    if (endpointClass != null && !needed.isAssignableFrom(endpointClass)) {
      throw new NotSupportedException(
          ErrorCode.INVALID_ACTIVATION.code()
              + " "
              + endpointClass.getName()
              + " must implement "
              + needed.getSimpleName()
              + (manual
                  ? " when manualAck is true"
                  : " (or set manualAck=true and implement MailboxDeliveryListener)"));
    }
    return manual
        ? new LeasedFetchActivation(kernel, workManager, scheduler, endpointFactory, spec)
        : new SubscriptionActivation(kernel, workManager, endpointFactory, spec);
  }

  public abstract void start();

  /** Stops new deliveries; waiting ones go back to the queue, running ones settle on their own. */
  public abstract void stop();

  /** Deliveries running now (for status and tests). */
  public int running() {
    return limiter.running();
  }
}
