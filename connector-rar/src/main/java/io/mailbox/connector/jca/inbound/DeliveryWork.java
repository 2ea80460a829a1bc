package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.RetriableDeliveryException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.Work;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** Hands one message to one MDB instance on a WorkManager thread and reports how it went. */
final class DeliveryWork implements Work {
  private final MessageEndpointFactory endpointFactory;
  private final Consumer<Object> invocation;
  private final CompletableFuture<Void> outcome;

  /**
   * @param invocation calls the listener method on the endpoint (an MDB proxy)
   * @param outcome completed normally when the MDB returned, exceptionally with what it threw
   */
  DeliveryWork(
      MessageEndpointFactory endpointFactory,
      Consumer<Object> invocation,
      CompletableFuture<Void> outcome) {
    this.endpointFactory = endpointFactory;
    this.invocation = invocation;
    this.outcome = outcome;
  }

  @Override
  public void run() {
    MessageEndpoint endpoint;
    try {
      endpoint = endpointFactory.createEndpoint(null);
    } catch (UnavailableException e) {
      // The MDB is being undeployed or its pool is exhausted: the message must come back.
      outcome.completeExceptionally(new RetriableDeliveryException("MDB endpoint unavailable", e));
      return;
    }
    try {
      invocation.accept(endpoint);
      outcome.complete(null);
    } catch (Throwable failure) {
      outcome.completeExceptionally(failure);
    } finally {
      endpoint.release();
    }
  }

  @Override
  public void release() {
    // A delivery cannot be interrupted half-way; it settles when the MDB returns.
  }
}
