package io.mailbox.connector.kernel;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.Receiver;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The kernel's record of one subscription. The transport sees it as a {@link Receiver}: stores it
 * where it routes messages and hands it back to {@link
 * io.mailbox.connector.spi.TransportContext#dispatch}. Closing it tears the transport side down
 * once and calls off the deliveries waiting in a retry backoff (running ones settle on their own).
 */
final class ProviderSubscription implements Subscription, Receiver {
  private static final Logger LOG = Logger.getLogger(ProviderSubscription.class.getName());

  private final String id = UUID.randomUUID().toString();
  private final MailAddress address;
  private final MailboxSubscriber subscriber;
  private final SubscribeOptions options;
  private final Consumer<ProviderSubscription> onClose;
  private final Set<DeliveryChain> chains = ConcurrentHashMap.newKeySet();
  private volatile AutoCloseable transportHandle;
  private volatile boolean active = true;

  ProviderSubscription(
      MailAddress address,
      MailboxSubscriber subscriber,
      SubscribeOptions options,
      Consumer<ProviderSubscription> onClose) {
    this.address = address;
    this.subscriber = subscriber;
    this.options = options;
    this.onClose = onClose;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public MailAddress address() {
    return address;
  }

  MailboxSubscriber subscriber() {
    return subscriber;
  }

  SubscribeOptions options() {
    return options;
  }

  void attach(AutoCloseable handle) {
    this.transportHandle = handle;
  }

  void track(DeliveryChain chain) {
    chains.add(chain);
  }

  void untrack(DeliveryChain chain) {
    chains.remove(chain);
  }

  /** Deliveries to this subscriber not yet ended (for {@link MailboxProvider#bookkeeping()}). */
  long trackedChains() {
    return chains.size();
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
    chains.forEach(DeliveryChain::cancelBackoff);
    onClose.accept(this);
  }

  /** Closes what the transport opened for this subscription; a failure is logged, not thrown. */
  void closeTransportSide() {
    AutoCloseable handle = transportHandle;
    if (handle == null) {
      return;
    }
    try {
      handle.close();
    } catch (Exception e) {
      LOG.log(Level.WARNING, "Closing a subscription to " + address + " failed", e);
    }
  }
}
