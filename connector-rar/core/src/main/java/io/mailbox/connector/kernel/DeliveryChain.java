package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Scheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One subscriber's delivery of one message: the attempts, the backoff between them and the watchdog
 * over each attempt. Each attempt gets its own copy stamped with {@code mbx-attempt} (and {@code
 * mbx-max-attempts} under a policy). Ends exactly once, reporting a {@link DeliveryOutcome}.
 *
 * <ul>
 *   <li>a return settles it as handled;
 *   <li>a retriable failure is retried after {@code policy.delayAfter(n)} while attempts remain and
 *       the subscription is active; otherwise it ends unhandled;
 *   <li>any other failure ends it as discard, without retry;
 *   <li>an attempt that outlives the settle timeout ends it unhandled (cancelled) and is logged; a
 *       backoff wait is never counted;
 *   <li>{@link #cancelBackoff()} (unsubscribe, stop) ends it unhandled only while it is waiting in
 *       a backoff; a running attempt always settles on its own.
 * </ul>
 */
public final class DeliveryChain {
  private static final Logger LOG = Logger.getLogger(DeliveryChain.class.getName());

  private final MailMessage copy;
  private final MailboxSubscriber subscriber;
  private final RetryPolicy policy;
  private final Duration settleTimeout;
  private final SettleWatchdog watchdog;
  private final Scheduler scheduler;
  private final BooleanSupplier subscriptionActive;
  private final Consumer<DeliveryOutcome> onEnd;
  private final Runnable onRetry;
  private final Runnable onRetriesExhausted;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile Scheduler.Cancellable backoff;
  private volatile int attemptsSoFar;

  /**
   * @param copy the handed-out copy (already stamped with its round)
   * @param policy the retry policy, or {@code null} for a single attempt
   * @param settleTimeout the watchdog per attempt; {@link Duration#ZERO} switches it off
   * @param watchdog watches attempts still running when deliver() returned
   * @param scheduler times the backoff between attempts
   * @param onRetry told before each attempt after the first (the traffic counters)
   */
  public DeliveryChain(
      MailMessage copy,
      MailboxSubscriber subscriber,
      RetryPolicy policy,
      Duration settleTimeout,
      SettleWatchdog watchdog,
      Scheduler scheduler,
      BooleanSupplier subscriptionActive,
      Runnable onRetry,
      Runnable onRetriesExhausted,
      Consumer<DeliveryOutcome> onEnd) {
    this.onRetry = onRetry;
    this.copy = copy;
    this.subscriber = subscriber;
    this.policy = policy;
    this.settleTimeout = settleTimeout;
    this.watchdog = watchdog;
    this.scheduler = scheduler;
    this.subscriptionActive = subscriptionActive;
    this.onRetriesExhausted = onRetriesExhausted;
    this.onEnd = onEnd;
  }

  public void start() {
    attempt(1);
  }

  /** Calls off a pending retry; returns true when the chain was waiting and has now ended. */
  public boolean cancelBackoff() {
    Scheduler.Cancellable pending = backoff;
    if (pending != null && pending.cancel()) {
      end(
          new DeliveryOutcome(
              Disposition.UNHANDLED,
              attemptsSoFar,
              new DeliveryCancelledException("unsubscribed during backoff")));
      return true;
    }
    return false;
  }

  private void attempt(int n) {
    backoff = null;
    if (n > 1) {
      onRetry.run();
    }
    attemptsSoFar = n;
    MailMessage.Builder stamped = copy.toBuilder().header(SystemHeaders.ATTEMPT, Stamps.count(n));
    if (policy != null) {
      stamped.header(SystemHeaders.MAX_ATTEMPTS, Stamps.count(policy.maxAttempts()));
    }
    MailMessage attemptCopy = stamped.build();
    AtomicBoolean settled = new AtomicBoolean();
    CompletionStage<Void> outcome;
    try {
      outcome = subscriber.deliver(attemptCopy);
      if (outcome == null) {
        outcome = CompletableFuture.completedFuture(null);
      }
    } catch (RuntimeException | Error e) {
      outcome = CompletableFuture.failedFuture(e);
    }
    // Watched only while still running when deliver() returned: a synchronous answer needs no
    // watch.
    SettleWatchdog.Watch watch =
        settleTimeout.isZero() || outcome.toCompletableFuture().isDone()
            ? null
            : watchdog.watch(settleTimeout, () -> timedOut(settled, n));
    outcome.whenComplete(
        (ignored, failure) -> {
          if (!settled.compareAndSet(false, true)) {
            return; // the watchdog already settled this attempt
          }
          if (watch != null) {
            watch.disarm();
          }
          afterAttempt(n, unwrap(failure));
        });
  }

  private void timedOut(AtomicBoolean settled, int n) {
    if (settled.compareAndSet(false, true)) {
      LOG.warning(
          () ->
              "Delivery of "
                  + copy
                  + " did not settle within "
                  + settleTimeout
                  + "; settled as cancelled so the message is not stuck invisible");
      end(
          new DeliveryOutcome(
              Disposition.UNHANDLED,
              n,
              new DeliveryCancelledException("settle timeout " + settleTimeout)));
    }
  }

  private void afterAttempt(int n, Throwable failure) {
    if (failure == null) {
      end(new DeliveryOutcome(Disposition.HANDLED, n, null));
      return;
    }
    if (!Disposition.isRetriable(failure)) {
      LOG.log(
          Level.WARNING,
          "Delivery of {0} failed fatally on attempt {1}: {2}",
          new Object[] {copy, n, describe(failure)});
      end(new DeliveryOutcome(Disposition.DISCARD, n, failure));
      return;
    }
    if (policy != null && n < policy.maxAttempts() && subscriptionActive.getAsBoolean()) {
      LOG.log(Level.FINE, "Retrying {0} after attempt {1}", new Object[] {copy, n});
      backoff = scheduler.schedule(policy.delayAfter(n), () -> attempt(n + 1));
      return;
    }
    if (policy != null && n >= policy.maxAttempts()) {
      onRetriesExhausted.run();
    }
    end(new DeliveryOutcome(Disposition.UNHANDLED, n, failure));
  }

  private void end(DeliveryOutcome outcome) {
    if (ended.compareAndSet(false, true)) {
      onEnd.accept(outcome);
    }
  }

  /** Wrappers that only say "something failed inside": by name, so the kernel needs no EJB API. */
  private static final java.util.Set<String> WRAPPERS =
      java.util.Set.of(
          "jakarta.ejb.EJBException",
          "jakarta.ejb.EJBTransactionRolledbackException",
          "java.lang.reflect.UndeclaredThrowableException",
          "java.lang.reflect.InvocationTargetException",
          "java.util.concurrent.CompletionException",
          "java.util.concurrent.ExecutionException");

  static Throwable applicationCause(Throwable failure) {
    Throwable t = failure;
    while (WRAPPERS.contains(t.getClass().getName()) && t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /**
   * Type and message of a failure, bounded: it goes into logs and dead-letter headers. Container
   * wrappers (an MDB's {@code EJBException}, reflection and future wrappers) are looked through, so
   * an operator reads the application's reason, not "system exception".
   */
  public static String describe(Throwable failure) {
    if (failure == null) {
      return "";
    }
    failure = applicationCause(failure);
    String text =
        failure.getClass().getName()
            + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    return text.length() <= 300 ? text : text.substring(0, 297) + "...";
  }

  /** An attempt that was called off (watchdog, unsubscribe during backoff): retriable by nature. */
  public static final class DeliveryCancelledException extends RuntimeException
      implements io.mailbox.connector.api.Retriable {
    private static final long serialVersionUID = 1L;

    DeliveryCancelledException(String why) {
      super("delivery cancelled: " + why);
    }

    @Override
    public boolean isRetriable() {
      return true;
    }
  }
}
