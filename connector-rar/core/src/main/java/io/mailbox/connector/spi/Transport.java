package io.mailbox.connector.spi;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.Reachability;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;

/**
 * What a broker, a database or a folder must do to carry mail: store a copy, hand copies out, take
 * them back, and report. Everything else — stamping at the send boundary, broadcast settlement,
 * retries, give-up, dead letters and parking, capability checks — is the kernel's, which wraps a
 * transport in a {@code kernel.MailboxProvider}.
 *
 * <p>A transport can do more by implementing the capability interfaces of this package ({@link
 * Peeking}, {@link Leasing}, {@link Recovering}, {@link Enumerating}, {@link Locating}, {@link
 * Removing}, {@link ParkedRecords}, {@link HandsBacklogToSubscribers}, {@link CustomDispositions}).
 * What it implements is what it declares: there is no separate list to keep in step.
 *
 * <p>{@link TransportBase} keeps the clock, the scheduler and the kernel's services for a transport
 * that extends it; the conformance kit ({@code ProviderContract}, docs/providers.md) checks the
 * whole contract.
 */
public interface Transport {

  /** The URI scheme this transport serves, lower case, for example {@code mem}. */
  String scheme();

  /** The clock stamps, leases and ages are read from. */
  Clock clock();

  /** Where the kernel runs retry backoffs and watchdogs, and the transport its sweeps. */
  Scheduler scheduler();

  /** Called once by the kernel, before {@link #start}: the services a transport may call back. */
  void attach(TransportContext context);

  /** Connects the transport. Called once per start of its provider. */
  default void start() {}

  /**
   * Releases the transport after every subscription was closed; drops the backlog if {@code purge}.
   */
  default void stop(boolean purge) {}

  /**
   * Whether the transport's broker answered a recent round trip ({@link Reachability#UP}) or not
   * ({@link Reachability#DOWN}: the mailbox's snapshot goes offline). A transport without a probe
   * of its own leaves it {@link Reachability#UNKNOWN}: a snapshot then counts a successful listing
   * of its addresses as the answer. Called on every snapshot and health probe: must not block.
   */
  default Reachability reachability() {
    return Reachability.UNKNOWN;
  }

  /**
   * Hands a stamped copy to {@code topic}: to every receiver present (through {@link
   * TransportContext#dispatch}), else to its queue; never both. {@code topic} differs from {@code
   * copy.to()} for dead-letter records.
   */
  void send(MailAddress topic, MailMessage copy);

  /**
   * Hands over stamped copies posted together, in order. By default one {@link #send} after
   * another; a transport that can store them together overrides it.
   */
  default void sendAll(List<MailMessage> copies) {
    copies.forEach(copy -> send(copy.to(), copy));
  }

  /**
   * Attaches a receiver; deliveries for it go through {@link TransportContext#dispatch}.
   *
   * @return a handle the kernel closes on unsubscribe or stop
   */
  AutoCloseable openSubscription(MailAddress address, Receiver receiver);

  /**
   * Removes up to {@code limit} queued copies, applying {@code handOut} to each. With a lease (only
   * on a {@link Leasing} transport) each copy stays in flight under it, and expired leases may be
   * reclaimed first; without one the copies are settled at once.
   */
  List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut);

  /**
   * Puts a copy back at the head of its queue, unless that copy (by key) is already queued or in
   * flight: a message is never queued twice.
   *
   * @return whether the copy was queued
   */
  boolean requeue(MailAddress address, MailMessage copy);

  /**
   * The transport's acknowledgement: a handed-out copy is done (a fetch settled it as handled, or a
   * subscriber handled a broadcast). A transport that keeps a copy until then (a broker delivery, a
   * file) releases it here.
   */
  default void acknowledge(MailAddress topic, MailMessage copy) {}

  /** A copy is given up: the transport stops redelivering it (a broker's nack). */
  default void abandon(MailAddress address, MailMessage copy) {}

  /**
   * Keeps a record that must never be handed out again (the end of a dead-letter chain). A
   * transport without a place for them logs it; a {@link ParkedRecords} transport lists them.
   */
  default void park(MailAddress address, MailMessage record) {
    Logger.getLogger(Transport.class.getName())
        .severe(
            () ->
                "Could not park "
                    + record
                    + " at "
                    + address
                    + ": the '"
                    + scheme()
                    + ":' transport keeps no parked records");
  }

  /**
   * Removes a given-up copy ({@link #abandon}) and stores what replaces it (its dead-letter post or
   * parked record, or nothing). Two steps by default; a transport that can do both at once (one
   * database transaction) overrides this, so a crash between them cannot lose the copy.
   */
  default void replaceGivenUp(MailAddress topic, MailMessage copy, Runnable storeReplacement) {
    abandon(topic, copy);
    storeReplacement.run();
  }

  /** The status of one address, with real counts. Works on a stopped transport too. */
  AddressStatus status(MailAddress address);

  /** Drops queued and in-flight copies of every address; returns how many. */
  long clearBacklog();

  /**
   * Adds the sizes of the transport's bookkeeping (queues, lease tables, windows), each key
   * prefixed with the scheme, to {@code sizes}. Must not change anything.
   */
  default void bookkeeping(Map<String, Long> sizes) {}
}
