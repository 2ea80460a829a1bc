package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxListener;
import io.mailbox.connector.api.RetriableDeliveryException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.Work;
import java.util.concurrent.CompletableFuture;

/** Hands one message to one MDB instance and reports the outcome to the kernel's settlement. */
final class DeliveryWork implements Work {
  private final MessageEndpointFactory endpointFactory;
  private final MailMessage message;
  private final CompletableFuture<Void> outcome;

  DeliveryWork(
      MessageEndpointFactory endpointFactory,
      MailMessage message,
      CompletableFuture<Void> outcome) {
    this.endpointFactory = endpointFactory;
    this.message = message;
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
      ((MailboxListener) endpoint).onMessage(message);
      outcome.complete(null);
    } catch (Throwable failure) {
      outcome.completeExceptionally(failure);
    } finally {
      endpoint.release();
    }
  }

  @Override
  public void release() {
    // A delivery cannot be interrupted half-way; it settles when onMessage returns.
  }
}
