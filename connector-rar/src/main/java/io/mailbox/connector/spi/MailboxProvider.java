package io.mailbox.connector.spi;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.MailboxSubscriber;
import io.mailbox.connector.api.Subscription;
import io.mailbox.connector.api.SystemHeaders;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The base every transport extends. It owns what is easy to get wrong by hand, so that a provider
 * implements only its transport:
 *
 * <ul>
 *   <li>the send boundary: each copy gets its own {@code mbx-send-id} and {@code mbx-sent-at}, and
 *       system headers a sender tried to set are stripped;
 *   <li>the subscription table: {@link #stop(boolean)} tears every subscription down before the
 *       provider's own {@link #onStop(boolean)} runs;
 *   <li>settlement: {@link #deliverTo} turns a consumer's outcome into a {@link Disposition}.
 * </ul>
 */
public abstract class MailboxProvider {
  private static final Logger LOG = Logger.getLogger(MailboxProvider.class.getName());

  private final Set<ProviderSubscription> subscriptions = ConcurrentHashMap.newKeySet();
  private final Clock clock;
  private volatile boolean started;

  protected MailboxProvider(Clock clock) {
    this.clock = clock;
  }

  /** The URI scheme this provider serves, lower case, for example {@code mem}. */
  public abstract String scheme();

  /** Starts the transport (connects, warms up). Idempotent. */
  public final synchronized void start() {
    if (!started) {
      onStart();
      started = true;
    }
  }

  /**
   * Stops the provider: every subscription is closed first, then the transport. Messages are kept
   * unless {@code purge} is true.
   */
  public final synchronized void stop(boolean purge) {
    started = false;
    for (ProviderSubscription subscription : List.copyOf(subscriptions)) {
      subscription.unsubscribe();
    }
    onStop(purge);
  }

  public final boolean isStarted() {
    return started;
  }

  /**
   * The send boundary: stamps a fresh copy and hands it to the transport.
   *
   * @return the copy as it was handed over, with its send id
   */
  public final MailMessage post(MailMessage message) {
    requireStarted();
    requireOwnScheme(message.to());
    MailMessage.Builder copy = message.toBuilder();
    message.headers().keySet().stream()
        .filter(SystemHeaders::isSystemHeader)
        .forEach(copy::removeHeader);
    MailMessage stamped =
        copy.header(SystemHeaders.SEND_ID, UUID.randomUUID().toString())
            .header(SystemHeaders.SENT_AT, now().toString())
            .build();
    send(stamped);
    return stamped;
  }

  /** Registers a push consumer; returns once the transport has established it. */
  public final Subscription subscribe(MailAddress address, MailboxSubscriber subscriber) {
    requireStarted();
    requireOwnScheme(address);
    ProviderSubscription subscription = new ProviderSubscription(address);
    subscriptions.add(subscription);
    try {
      subscription.transportHandle = openSubscription(address, subscriber);
    } catch (RuntimeException e) {
      subscriptions.remove(subscription);
      throw e;
    }
    return subscription;
  }

  /** Takes the next queued message, auto-acknowledged. */
  public final Optional<MailMessage> fetch(MailAddress address) {
    requireStarted();
    requireOwnScheme(address);
    return take(address);
  }

  /** The status of one address. Works on a stopped provider too (it reports what it knows). */
  public abstract AddressStatus status(MailAddress address);

  /**
   * Every address this provider knows, or empty when it cannot enumerate (a broker that does not
   * list its queues): the snapshot then reports the provider as unsupported.
   */
  public abstract Optional<List<AddressStatus>> enumerate();

  /** The number of subscriptions currently attached; zero after {@link #stop}. */
  public final int subscriptionCount() {
    return subscriptions.size();
  }

  // ---- hooks a transport implements ---------------------------------------------------------

  /** Connects the transport. Called once per start. */
  protected void onStart() {}

  /**
   * Releases the transport after every subscription was closed; drops messages if {@code purge}.
   */
  protected void onStop(boolean purge) {}

  /** Hands a stamped copy to the transport: to every subscriber present, else to the queue. */
  protected abstract void send(MailMessage stamped);

  /**
   * Attaches a consumer in the transport.
   *
   * @return a handle the base closes on unsubscribe or stop
   */
  protected abstract AutoCloseable openSubscription(
      MailAddress address, MailboxSubscriber subscriber);

  /** Removes and returns the next queued message. */
  protected abstract Optional<MailMessage> take(MailAddress address);

  // ---- services for transports -----------------------------------------------------------------

  /**
   * Runs one delivery and maps its outcome: a return is {@link Disposition#HANDLED}, a retriable
   * failure {@link Disposition#UNHANDLED}, any other failure (or a consumer that throws instead of
   * failing its stage) {@link Disposition#DISCARD}. The returned stage never fails.
   */
  protected final CompletionStage<Disposition> deliverTo(
      MailboxSubscriber subscriber, MailMessage message) {
    CompletionStage<Void> outcome;
    try {
      outcome = subscriber.deliver(message);
    } catch (RuntimeException e) {
      outcome = CompletableFuture.failedFuture(e);
    }
    return outcome.handle(
        (ignored, failure) -> {
          Throwable cause = unwrap(failure);
          Disposition disposition = Disposition.of(cause);
          if (cause != null) {
            LOG.log(
                disposition == Disposition.UNHANDLED ? Level.INFO : Level.WARNING,
                "Delivery of {0} failed ({1}): {2}",
                new Object[] {message, disposition, cause.getClass().getName()});
          }
          return disposition;
        });
  }

  protected final Instant now() {
    return clock.instant();
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private void requireStarted() {
    if (!started) {
      throw new MailboxException(
          ErrorCode.NOT_STARTED,
          "The '" + scheme() + ":' provider is not started; start the mailbox first.");
    }
  }

  private void requireOwnScheme(MailAddress address) {
    if (!scheme().equals(address.scheme())) {
      throw new MailboxException(
          ErrorCode.UNKNOWN_SCHEME,
          "Address "
              + address
              + " is not a '"
              + scheme()
              + ":' address; post it through the mailbox kernel.");
    }
  }

  /** The base's view of one subscription; closing it closes the transport's handle once. */
  private final class ProviderSubscription implements Subscription {
    private final MailAddress address;
    private volatile AutoCloseable transportHandle;
    private volatile boolean active = true;

    ProviderSubscription(MailAddress address) {
      this.address = address;
    }

    @Override
    public MailAddress address() {
      return address;
    }

    @Override
    public boolean isActive() {
      return active;
    }

    @Override
    public void unsubscribe() {
      synchronized (this) {
        if (!active) {
          return;
        }
        active = false;
      }
      subscriptions.remove(this);
      try {
        if (transportHandle != null) {
          transportHandle.close();
        }
      } catch (Exception e) {
        LOG.log(Level.WARNING, "Closing a subscription to " + address + " failed", e);
      }
    }
  }
}
