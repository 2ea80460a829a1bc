package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxDeliveryListener;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.spi.Scheduler;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An MDB that settles each message itself: the activation fetches under leases, never more than the
 * endpoint's free concurrency, and hands each {@link Delivery} to {@link
 * MailboxDeliveryListener#onDelivery}. Competing consumers: each message goes to one MDB instance.
 */
final class LeasedFetchActivation extends EndpointActivation {
  private static final Logger LOG = Logger.getLogger(LeasedFetchActivation.class.getName());

  private final Scheduler scheduler;
  private final Duration pollInterval;
  private final AtomicBoolean active = new AtomicBoolean();
  private volatile Scheduler.Cancellable nextPoll;

  LeasedFetchActivation(
      Mailbox kernel,
      WorkManager workManager,
      Scheduler scheduler,
      MessageEndpointFactory endpointFactory,
      MailboxActivationSpec spec) {
    super(kernel, workManager, endpointFactory, spec);
    this.scheduler = scheduler;
    this.pollInterval = Duration.ofMillis(spec.getPollIntervalMillis());
  }

  @Override
  public void start() {
    active.set(true);
    pollAfter(Duration.ZERO);
    LOG.info(
        () ->
            "MDB "
                + endpointFactory.getActivationName()
                + " fetches (manual ack) from "
                + spec.mailAddress());
  }

  @Override
  public void stop() {
    active.set(false);
    Scheduler.Cancellable pending = nextPoll;
    if (pending != null) {
      pending.cancel();
    }
    limiter.close();
  }

  private synchronized void pollAfter(Duration delay) {
    if (active.get()) {
      Scheduler.Cancellable previous = nextPoll;
      if (previous != null) {
        previous.cancel();
      }
      nextPoll = scheduler.schedule(delay, this::poll);
    }
  }

  private void poll() {
    if (!active.get()) {
      return;
    }
    int capacity = limiter.capacity();
    if (capacity == 0) {
      return; // a finishing delivery polls again
    }
    List<Delivery> taken;
    try {
      FetchOptions options =
          new FetchOptions(
              Math.min(capacity, 100), true, Duration.ofMillis(spec.getLeaseMillis()), false);
      taken = kernel.fetch(spec.getAddress(), options);
    } catch (MailboxException e) {
      LOG.log(
          Level.WARNING,
          "Fetching for MDB {0} failed: {1}",
          new Object[] {endpointFactory.getActivationName(), e.getMessage()});
      pollAfter(pollInterval);
      return;
    }
    taken.forEach(this::submit);
    pollAfter(taken.size() == capacity ? Duration.ZERO : pollInterval);
  }

  /**
   * Runs one delivery. Its concurrency slot is held until the delivery is settled (by the MDB, or
   * here when the MDB threw) or its lease ends, so a slow or forgetful consumer never holds more
   * than {@code maxConcurrency} leases.
   */
  private void submit(Delivery delivery) {
    AtomicBoolean slotReleased = new AtomicBoolean();
    Runnable releaseSlot =
        () -> {
          if (slotReleased.compareAndSet(false, true)) {
            limiter.finished();
            pollAfter(Duration.ZERO);
          }
        };
    SettlementTracking tracked = new SettlementTracking(delivery, releaseSlot);
    CompletableFuture<Void> outcome = new CompletableFuture<>();
    limiter.submit(
        new ConcurrencyLimiter.PendingDelivery() {
          @Override
          public void start() {
            outcome.whenComplete(
                (ignored, failure) -> {
                  if (failure != null && !tracked.settled()) {
                    tracked.settle(Disposition.of(failure));
                  } else if (!tracked.settled()) {
                    releaseWhenLeaseEnds(delivery, releaseSlot);
                  }
                });
            try {
              workManager.scheduleWork(
                  new DeliveryWork(
                      endpointFactory,
                      endpoint -> ((MailboxDeliveryListener) endpoint).onDelivery(tracked),
                      outcome));
            } catch (WorkException e) {
              outcome.completeExceptionally(
                  new io.mailbox.connector.api.RetriableDeliveryException(
                      "WorkManager refused", e));
            }
          }

          @Override
          public void giveBack() {
            tracked.settle(Disposition.UNHANDLED);
          }
        });
  }

  /** The MDB kept the delivery unsettled: its slot frees when it settles or its lease ends. */
  private void releaseWhenLeaseEnds(Delivery delivery, Runnable releaseSlot) {
    delivery
        .leaseExpiresAt()
        .ifPresent(
            expiry ->
                scheduler.schedule(
                    Duration.between(Instant.now(), expiry).plusMillis(1), releaseSlot));
  }

  /**
   * Remembers whether the MDB settled its delivery, so a failure settles only what is still open.
   */
  private static final class SettlementTracking implements Delivery {
    private final Delivery delivery;
    private final AtomicBoolean settled = new AtomicBoolean();
    private final Runnable onSettled;

    SettlementTracking(Delivery delivery, Runnable onSettled) {
      this.delivery = delivery;
      this.onSettled = onSettled;
    }

    boolean settled() {
      return settled.get();
    }

    @Override
    public MailMessage message() {
      return delivery.message();
    }

    @Override
    public MailAddress address() {
      return delivery.address();
    }

    @Override
    public String key() {
      return delivery.key();
    }

    @Override
    public Optional<String> leaseId() {
      return delivery.leaseId();
    }

    @Override
    public Optional<Instant> leaseExpiresAt() {
      return delivery.leaseExpiresAt();
    }

    @Override
    public boolean settle(Disposition disposition) {
      boolean done = delivery.settle(disposition);
      if (done) {
        settled.set(true);
        onSettled.run();
      }
      return done;
    }
  }
}
