package io.mailbox.messaging;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@code delivery=push} channel's subscription: the transport pushes copies (as many as its own
 * window allows unsettled), each waits here until the channel's demand takes it, and the kernel
 * settles it when the message's ack or nack completes its stage ({@link PushedDelivery}).
 */
final class PushedCopies {
  private static final Logger LOG = Logger.getLogger(PushedCopies.class.getName());

  private final ChannelSettings settings;
  private final Supplier<MailboxConnectionFactory> connections;
  private final Runnable wakeUp;
  private final Queue<PushedDelivery> waiting = new ConcurrentLinkedQueue<>();
  private volatile AutoCloseable subscription;
  private volatile boolean closed;
  private volatile boolean fetching; // delivery=auto on a provider that cannot push its backlog

  /**
   * @param wakeUp told when a copy arrives
   */
  PushedCopies(
      ChannelSettings settings, Supplier<MailboxConnectionFactory> connections, Runnable wakeUp) {
    this.settings = settings;
    this.connections = connections;
    this.wakeUp = wakeUp;
  }

  /**
   * Subscribes once; true while pushed, false when the channel fetches instead ({@code
   * delivery=auto} where the provider does not hand its backlog to subscribers). A refusal (the
   * transport away) throws, and the next pass tries again.
   */
  boolean subscribe() {
    if (fetching || closed) {
      return false;
    }
    if (subscription != null) {
      return true;
    }
    try (MailboxConnection connection = connections.get().getConnection()) {
      if (settings.delivery() == ChannelSettings.Delivery.AUTO
          && !connection.can(Capabilities.SUBSCRIBERS_TAKE_BACKLOG, settings.address())) {
        fetching = true;
        LOG.fine(() -> "Channel " + settings.channel() + " fetches from " + settings.address());
        return false;
      }
      subscription = connection.subscribe(settings.address(), this::pushed);
    }
    if (closed) {
      close(); // closed while subscribing: end what was just made
      return false;
    }
    LOG.fine(() -> "Channel " + settings.channel() + " is pushed from " + settings.address());
    return true;
  }

  private java.util.concurrent.CompletionStage<Void> pushed(
      io.mailbox.connector.api.MailMessage copy) {
    PushedDelivery delivery = new PushedDelivery(settings.address(), copy);
    if (closed) {
      delivery.settle(Disposition.UNHANDLED);
    } else {
      waiting.offer(delivery);
      wakeUp.run();
    }
    return delivery.settled();
  }

  /** Up to {@code limit} pushed copies, oldest first. */
  List<Delivery> take(int limit) {
    List<Delivery> taken = new ArrayList<>();
    PushedDelivery next;
    while (taken.size() < limit && (next = waiting.poll()) != null) {
      taken.add(next);
    }
    return taken;
  }

  /** Ends the subscription; copies never handed out go back to the transport at once. */
  void close() {
    closed = true;
    AutoCloseable current = subscription;
    if (current != null) {
      try {
        current.close();
      } catch (Exception e) {
        LOG.log(Level.FINE, "Closing channel " + settings.channel() + "'s subscription failed", e);
      }
    }
    PushedDelivery left;
    while ((left = waiting.poll()) != null) {
      left.settle(Disposition.UNHANDLED);
    }
  }
}
