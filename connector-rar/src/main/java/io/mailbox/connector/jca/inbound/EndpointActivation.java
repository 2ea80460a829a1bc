package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.api.Subscription;
import io.mailbox.connector.kernel.Mailbox;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.logging.Logger;

/**
 * One active MDB endpoint: a kernel subscription whose deliveries run as {@link DeliveryWork} on
 * the adapter's WorkManager, so the poster's thread (possibly committing a transaction) never runs
 * application code.
 */
public final class EndpointActivation {
  private static final Logger LOG = Logger.getLogger(EndpointActivation.class.getName());

  private final Mailbox kernel;
  private final WorkManager workManager;
  private final MessageEndpointFactory endpointFactory;
  private final MailboxActivationSpec spec;
  private volatile Subscription subscription;

  public EndpointActivation(
      Mailbox kernel,
      WorkManager workManager,
      MessageEndpointFactory endpointFactory,
      MailboxActivationSpec spec) {
    this.kernel = kernel;
    this.workManager = workManager;
    this.endpointFactory = endpointFactory;
    this.spec = spec;
  }

  public void start() {
    subscription = kernel.subscribe(spec.getAddress(), this::deliver);
    LOG.info(
        () ->
            "MDB endpoint "
                + endpointFactory.getActivationName()
                + " listens on "
                + spec.mailAddress());
  }

  /** Stops deliveries; one already running settles on its own. */
  public void stop() {
    Subscription current = subscription;
    if (current != null) {
      current.unsubscribe();
    }
  }

  private CompletionStage<Void> deliver(MailMessage message) {
    CompletableFuture<Void> outcome = new CompletableFuture<>();
    try {
      workManager.scheduleWork(new DeliveryWork(endpointFactory, message, outcome));
    } catch (WorkException e) {
      // No thread to run it on: put the message back rather than lose it.
      outcome.completeExceptionally(
          new RetriableDeliveryException("WorkManager refused the delivery", e));
    }
    return outcome;
  }
}
