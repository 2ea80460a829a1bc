package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.kernel.DeliveryChain;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.kernel.SubscribeOptions;
import io.mailbox.connector.kernel.Subscription;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The base class's record of one subscription. A transport stores it where it routes messages and
 * hands it back to {@link MailboxProvider#dispatch}; closing it tears the transport side down once
 * and calls off the deliveries waiting in a retry backoff (running ones settle on their own).
 */
public final class ProviderSubscription implements Subscription {
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

  /** Identifies the subscription; a delivery id is this id plus the copy key. */
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

  AutoCloseable transportHandle() {
    return transportHandle;
  }
}
