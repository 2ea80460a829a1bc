package io.mailbox.messaging;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A fetching channel's wait for the next copy queued at its address, where the provider signals
 * arrivals ({@value Capabilities#ARRIVAL_SIGNAL}: {@code mem:}, {@code file:}). Armed when a fetch
 * finds the queue empty, it wakes the channel once a copy is queued: a lull's first message is
 * taken at once instead of at the next poll, and the poll interval is left as a safety net. At most
 * one signal is armed at a time.
 */
final class ArrivalSignal {
  private static final Logger LOG = Logger.getLogger(ArrivalSignal.class.getName());

  private final ChannelSettings settings;
  private final Supplier<MailboxConnectionFactory> connections;
  private final Runnable wakeUp;
  private final AtomicBoolean armed = new AtomicBoolean();
  private volatile Runnable cancel;
  private volatile boolean closed;
  // Asked once, on the first empty fetch; only drain passes (which never overlap) touch it.
  private Boolean providerSignals;

  /**
   * @param wakeUp run on the thread that queued the copy: it must only hand work off
   */
  ArrivalSignal(
      ChannelSettings settings, Supplier<MailboxConnectionFactory> connections, Runnable wakeUp) {
    this.settings = settings;
    this.connections = connections;
    this.wakeUp = wakeUp;
  }

  /**
   * Arms the signal unless it is armed; false where it cannot be (the provider cannot signal, or
   * asking failed): the channel then polls. Never throws: a signal only saves a poll, and failing
   * to arm one must not count as a failed read.
   */
  boolean arm() {
    if (closed || Boolean.FALSE.equals(providerSignals)) {
      return false;
    }
    if (armed.get()) {
      return true; // no connection for nothing: every empty fetch of a waiting channel comes here
    }
    try (MailboxConnection connection = connections.get().getConnection()) {
      if (providerSignals == null) {
        providerSignals = connection.can(Capabilities.ARRIVAL_SIGNAL, settings.address());
        LOG.fine(
            () ->
                "Channel "
                    + settings.channel()
                    + (providerSignals ? " waits for arrivals at " : " polls ")
                    + settings.address());
      }
      if (!providerSignals || !armed.compareAndSet(false, true)) {
        return providerSignals;
      }
      try {
        // May run arrived() at once, on this thread, when a copy is queued already.
        cancel = connection.onNextArrival(settings.address(), this::arrived);
      } catch (RuntimeException e) {
        armed.set(false);
        throw e;
      }
    } catch (RuntimeException e) {
      LOG.log(
          Level.FINE, "Channel " + settings.channel() + ": no arrival signal, polling instead", e);
      return false;
    }
    if (closed) {
      close(); // closed while arming: drop what was just armed
    }
    return true;
  }

  private void arrived() {
    armed.set(false);
    if (!closed) {
      wakeUp.run();
    }
  }

  /** The channel stops: a signal not given yet is dropped, and none is armed again. */
  void close() {
    closed = true;
    Runnable current = cancel;
    if (current != null) {
      try {
        current.run();
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "Channel " + settings.channel() + ": dropping its arrival signal", e);
      }
    }
  }
}
