package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxListener;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.SubscribeOptions;
import io.mailbox.connector.kernel.Subscription;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.logging.Logger;

/**
 * An MDB on a kernel subscription: every message posted while it is active reaches it (with the
 * endpoint's own retry policy, if set). A return settles handled; {@code
 * RetriableDeliveryException} unhandled; any other exception discard.
 */
final class SubscriptionActivation extends EndpointActivation {
  private static final Logger LOG = Logger.getLogger(SubscriptionActivation.class.getName());

  private volatile Subscription subscription;

  SubscriptionActivation(
      Mailbox kernel,
      WorkManager workManager,
      MessageEndpointFactory endpointFactory,
      MailboxActivationSpec spec) {
    super(kernel, workManager, endpointFactory, spec);
  }

  @Override
  public void start() {
    SubscribeOptions options = new SubscribeOptions(spec.retryPolicy().orElse(null));
    subscription = kernel.subscribe(spec.getAddress(), this::deliver, options);
    LOG.info(
        () ->
            "MDB " + endpointFactory.getActivationName() + " subscribed to " + spec.mailAddress());
  }

  @Override
  public void stop() {
    Subscription current = subscription;
    if (current != null) {
      current.unsubscribe();
    }
    limiter.close();
  }

  private CompletionStage<Void> deliver(MailMessage message) {
    CompletableFuture<Void> outcome = new CompletableFuture<>();
    limiter.submit(
        new ConcurrencyLimiter.PendingDelivery() {
          @Override
          public void start() {
            outcome.whenComplete((ignored, failure) -> limiter.finished());
            try {
              workManager.scheduleWork(
                  new DeliveryWork(
                      endpointFactory,
                      endpoint -> ((MailboxListener) endpoint).onMessage(message),
                      outcome));
            } catch (WorkException e) {
              // No thread to run it on: put the message back rather than lose it.
              outcome.completeExceptionally(
                  new RetriableDeliveryException("WorkManager refused the delivery", e));
            }
          }

          @Override
          public void giveBack() {
            outcome.completeExceptionally(
                new RetriableDeliveryException("endpoint deactivated before delivery"));
          }
        });
    return outcome;
  }
}
