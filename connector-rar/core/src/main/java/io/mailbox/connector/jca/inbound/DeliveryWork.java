package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.HandlerNotReady;
import io.mailbox.connector.api.RetriableDeliveryException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.Work;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Hands one message to one MDB instance on a WorkManager thread and reports how it went. A failure
 * the MDB's own code did not raise (its class is nowhere on the failure's stack) means the bean
 * never ran — a container still starting or stopping (measured on Payara Micro after a restart with
 * a backlog: a ClassCastException inside the MDB container) — and is "not now": retriable, after a
 * short pause so the message does not spin through its delivery cap while the container gets ready.
 */
final class DeliveryWork implements Work {
  /** How long a delivery the container refused waits before it is given back. */
  static final Duration NOT_READY_PAUSE = Duration.ofSeconds(1);

  private final MessageEndpointFactory endpointFactory;
  private final Consumer<Object> invocation;
  private final CompletableFuture<Void> outcome;
  private final Duration notReadyPause;

  /**
   * @param invocation calls the listener method on the endpoint (an MDB proxy)
   * @param outcome completed normally when the MDB returned, exceptionally with what it threw
   */
  DeliveryWork(
      MessageEndpointFactory endpointFactory,
      Consumer<Object> invocation,
      CompletableFuture<Void> outcome) {
    this(endpointFactory, invocation, outcome, NOT_READY_PAUSE);
  }

  DeliveryWork(
      MessageEndpointFactory endpointFactory,
      Consumer<Object> invocation,
      CompletableFuture<Void> outcome,
      Duration notReadyPause) {
    this.endpointFactory = endpointFactory;
    this.invocation = invocation;
    this.outcome = outcome;
    this.notReadyPause = notReadyPause;
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
      // The bean never ran, or what it called refused as a container does (starting or stopping:
      // measured on Payara Micro, "Attempt to invoke when container is in STOPPED" on a SIGTERM).
      if (beanNeverRan(endpointFactory.getEndpointClass(), failure)
          || HandlerNotReady.is(failure)) {
        pause();
        outcome.completeExceptionally(
            new RetriableDeliveryException(
                "the MDB did not run (its container refused the call): delivered again later",
                failure));
      } else {
        outcome.completeExceptionally(failure);
      }
    } finally {
      endpoint.release();
    }
  }

  /** Whether no frame of {@code beanClass} is on the stack of the failure or of its causes. */
  static boolean beanNeverRan(Class<?> beanClass, Throwable failure) {
    if (beanClass == null) {
      return false; // the container does not say which class the bean is: keep the old rule
    }
    // A generated class (a container proxy, a lambda) runs its code in the class it was made for.
    String name = beanClass.getName();
    String bean = name.contains("$$") ? name.substring(0, name.indexOf("$$")) : name;
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 16; t = t.getCause(), depth++) {
      for (StackTraceElement frame : t.getStackTrace()) {
        if (frame.getClassName().equals(bean) || frame.getClassName().startsWith(bean + "$")) {
          return false;
        }
      }
    }
    return true;
  }

  private void pause() {
    try {
      Thread.sleep(notReadyPause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void release() {
    // A delivery cannot be interrupted half-way; it settles when the MDB returns.
  }
}
