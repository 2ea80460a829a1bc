package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.CustomDispositions;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.HandsBacklogToSubscribers;
import io.mailbox.connector.spi.KeepsBatchOrder;
import io.mailbox.connector.spi.Leasing;
import io.mailbox.connector.spi.Locating;
import io.mailbox.connector.spi.NarrowsCapabilities;
import io.mailbox.connector.spi.ParkedRecords;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.Purging;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Removing;
import io.mailbox.connector.spi.SignalsArrivals;
import io.mailbox.connector.spi.Transport;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * The checks made before anything changes: an operation the transport cannot do fails with {@code
 * MBX-1007}, an address of another scheme with {@code MBX-1003}, a call before start with {@code
 * MBX-2001}. What a transport can do is read from the capability interfaces it implements.
 */
final class CapabilityGuard {
  private final Transport transport;
  private final Set<String> declared;
  private final BooleanSupplier deadLettersOn;

  CapabilityGuard(Transport transport, BooleanSupplier deadLettersOn) {
    this.transport = transport;
    this.declared = declaredBy(transport);
    this.deadLettersOn = deadLettersOn;
  }

  /** The capabilities a transport's interfaces declare; {@code status} every transport has. */
  static Set<String> declaredBy(Transport transport) {
    Set<String> all = new TreeSet<>();
    all.add(Capabilities.STATUS);
    addIf(all, transport instanceof Peeking, Capabilities.PEEK);
    addIf(all, transport instanceof Leasing, Capabilities.LEASE);
    addIf(all, transport instanceof Recovering, Capabilities.RECOVER);
    addIf(all, transport instanceof Enumerating, Capabilities.ENUMERATE);
    addIf(all, transport instanceof Locating, Capabilities.LOCATE);
    addIf(all, transport instanceof Removing, Capabilities.REMOVE);
    addIf(all, transport instanceof Removing || transport instanceof Purging, Capabilities.PURGE);
    addIf(all, transport instanceof ParkedRecords, Capabilities.PARKED);
    addIf(
        all,
        transport instanceof ParkedRecords parked && parked.removesOneParkedRecord(),
        Capabilities.PARKED_REMOVE);
    addIf(all, transport instanceof KeepsBatchOrder, Capabilities.ORDERED_BATCH);
    addIf(
        all, transport instanceof HandsBacklogToSubscribers, Capabilities.SUBSCRIBERS_TAKE_BACKLOG);
    addIf(all, transport instanceof SignalsArrivals, Capabilities.ARRIVAL_SIGNAL);
    if (transport instanceof CustomDispositions custom) {
      custom.dispositionNames().forEach(name -> all.add(Disposition.custom(name).capability()));
    }
    return Collections.unmodifiableSet(all);
  }

  private static void addIf(Set<String> all, boolean implemented, String capability) {
    if (implemented) {
      all.add(capability);
    }
  }

  /** Everything the provider can do now: what the transport declares plus enabled options. */
  Set<String> supports() {
    if (!deadLettersOn.getAsBoolean()) {
      return declared;
    }
    Set<String> all = new TreeSet<>(declared);
    all.add(Capabilities.DEAD_LETTER);
    return Collections.unmodifiableSet(all);
  }

  boolean supports(String capability) {
    return declared.contains(capability)
        || (Capabilities.DEAD_LETTER.equals(capability) && deadLettersOn.getAsBoolean());
  }

  void require(String capability) {
    if (!supports(capability)) {
      throw new MailboxException(
          ErrorCode.UNSUPPORTED_CAPABILITY,
          "The '"
              + transport.scheme()
              + ":' provider does not support '"
              + capability
              + "'; it declares "
              + supports()
              + ".");
    }
  }

  /** Whether {@code capability} is supported and possible at {@code address}. */
  boolean can(String capability, MailAddress address) {
    return supports(capability)
        && !(transport instanceof NarrowsCapabilities narrowed
            && !narrowed.canAt(capability, address));
  }

  /** Like {@link #require}, and refused where the transport cannot do it at {@code address}. */
  void requireAt(String capability, MailAddress address) {
    require(capability);
    if (!can(capability, address)) {
      throw new MailboxException(
          ErrorCode.UNSUPPORTED_CAPABILITY,
          "The '"
              + transport.scheme()
              + ":' provider cannot '"
              + capability
              + "' at "
              + address
              + " (docs/providers.md says where it can).");
    }
  }

  void requireDisposition(Disposition disposition) {
    if (!disposition.isCore()) {
      require(disposition.capability());
    }
  }

  void requireStarted(boolean started) {
    if (!started) {
      throw new MailboxException(
          ErrorCode.NOT_STARTED,
          "The '" + transport.scheme() + ":' provider is not started; start the mailbox first.");
    }
  }

  void requireOwnScheme(MailAddress address) {
    if (!transport.scheme().equals(address.scheme())) {
      throw new MailboxException(
          ErrorCode.UNKNOWN_SCHEME,
          "Address "
              + address
              + " is not a '"
              + transport.scheme()
              + ":' address; post it through the mailbox kernel.");
    }
  }
}
