package io.mailbox.messaging;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.HandlerNotReady;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.tracing.MessageTracing.TracedSpan;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * A message of an incoming {@code mailbox} channel: the payload is the body text; the mailbox
 * details are reachable with {@code message.unwrap(IncomingMailboxMessage.class)} (or {@link
 * #of(Message)}). {@code ack()} settles it as handled; {@code nack(e)} as unhandled when {@code e}
 * is retriable and rounds remain (after the channel's retry delay), otherwise as discard (a
 * dead-letter record where enabled).
 */
public final class IncomingMailboxMessage implements Message<String> {
  private static final Logger LOG = Logger.getLogger(IncomingMailboxMessage.class.getName());

  private final Delivery delivery;
  private final ChannelSettings settings;
  private final NackScheduler nackScheduler;
  private final Runnable onSettled;
  private final NotNow notNow;
  private final TracedSpan span;
  private final AtomicBoolean settled = new AtomicBoolean();

  /** Runs a delayed "give it back" without holding a thread. */
  interface NackScheduler {
    void later(java.time.Duration delay, Runnable task);
  }

  /** What the channel does with deliveries that must not be settled now. */
  interface NotNow {
    /** Takes back a delivery whose handler was not there yet, to hand it out again later. */
    void handOutAgain(Delivery delivery);

    /** Whether the channel is stopping (the application is being stopped or undeployed). */
    boolean stopping();
  }

  IncomingMailboxMessage(
      Delivery delivery,
      ChannelSettings settings,
      NackScheduler nackScheduler,
      Runnable onSettled,
      NotNow notNow,
      TracedSpan span) {
    this.delivery = delivery;
    this.settings = settings;
    this.nackScheduler = nackScheduler;
    this.onSettled = onSettled;
    this.notNow = notNow;
    this.span = span;
  }

  /** The mailbox details of a message from a {@code mailbox} channel, if it is one. */
  public static Optional<IncomingMailboxMessage> of(Message<?> message) {
    if (message instanceof IncomingMailboxMessage incoming) {
      return Optional.of(incoming);
    }
    try {
      return Optional.of(message.unwrap(IncomingMailboxMessage.class));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  @Override
  public String getPayload() {
    return delivery.message().body();
  }

  /** The address the message was taken from. */
  public MailAddress address() {
    return delivery.address();
  }

  /** The sender's message id. */
  public String messageId() {
    return delivery.message().id();
  }

  /** This copy's key ({@code mbx-send-id}). */
  public String sendId() {
    return delivery.key();
  }

  /** Every header, including the system ones. */
  public Map<String, String> headers() {
    return delivery.message().headers();
  }

  /** Which hand-out this is (1 the first time; grows each time the message comes back). */
  public int round() {
    return SystemHeaders.intHeader(delivery.message(), SystemHeaders.ROUND, 1);
  }

  /** The attempt inside one delivery chain (always 1 for a fetched message). */
  public int attempt() {
    return SystemHeaders.intHeader(delivery.message(), SystemHeaders.ATTEMPT, 1);
  }

  @Override
  public Supplier<CompletionStage<Void>> getAck() {
    return () -> {
      settle(Disposition.HANDLED, null);
      return CompletableFuture.completedFuture(null);
    };
  }

  @Override
  public Function<Throwable, CompletionStage<Void>> getNack() {
    return reason -> {
      if (HandlerNotReady.is(reason) && settled.compareAndSet(false, true)) {
        // The handler is not there yet (a server still starting): keep the lease, count nothing,
        // and hand the same delivery out again once the channel's pause is over.
        notNow.handOutAgain(delivery);
        span.end("not-ready", null);
        onSettled.run();
        return CompletableFuture.completedFuture(null);
      }
      if (notNow.stopping() && settled.compareAndSet(false, true)) {
        // A failure while the application stops says nothing about the message: leave it under
        // its lease, which runs out and hands it out again (after a restart) — never a dead letter.
        LOG.fine(
            () -> "Channel " + settings.channel() + ": a nack while stopping left to its lease");
        span.end("left-to-lease", reason);
        onSettled.run();
        return CompletableFuture.completedFuture(null);
      }
      boolean retry =
          Disposition.isRetriable(reason)
              && (settings.maxAttempts() == 0 || round() < settings.maxAttempts());
      if (retry) {
        // Hold the lease through the backoff, then give it back: no hot loop of instant
        // redeliveries.
        nackScheduler.later(
            settings.retryDelayAfter(round()), () -> settle(Disposition.UNHANDLED, reason));
      } else {
        // The dead-letter record has no room for the reason: say it here, one line, no payload.
        LOG.warning(
            () ->
                "Channel "
                    + settings.channel()
                    + ": message "
                    + delivery.key()
                    + " given up (round "
                    + round()
                    + "): "
                    + (reason == null ? "no reason" : reason.getClass().getName()));
        settle(Disposition.DISCARD, reason);
      }
      return CompletableFuture.completedFuture(null);
    };
  }

  @Override
  public <C> C unwrap(Class<C> type) {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    if (type.isInstance(delivery)) {
      return type.cast(delivery);
    }
    throw new IllegalArgumentException(
        "A mailbox message cannot be unwrapped as " + type.getName());
  }

  private void settle(Disposition disposition, Throwable reason) {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    span.end(disposition.name(), reason); // lower case already: a disposition's name is checked
    try {
      delivery.settle(disposition);
    } catch (RuntimeException e) {
      // The store could not take it (a database outage): the copy stays under its lease and is
      // handed out again after it, where the inbox drops a repeat. Nothing is lost, so the ack
      // still completes; a failed stage would end the channel's stream.
      LOG.warning(
          () ->
              "Channel "
                  + settings.channel()
                  + ": settling message "
                  + delivery.key()
                  + " as "
                  + disposition
                  + " failed; it comes back after its lease: "
                  + e.getClass().getName());
    } finally {
      // Always: a slot that is never freed stops the channel for good once max-in-flight are lost.
      onSettled.run();
    }
  }

  @Override
  public String toString() {
    return "IncomingMailboxMessage[" + delivery.message() + "]";
  }
}
