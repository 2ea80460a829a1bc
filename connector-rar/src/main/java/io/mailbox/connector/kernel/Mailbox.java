package io.mailbox.connector.kernel;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.MailboxSubscriber;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.connector.api.Subscription;
import io.mailbox.connector.spi.MailboxProvider;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The kernel: a registry of providers by scheme, and the one door every operation goes through.
 * Plain Java (no JCA, CDI or JPA types) so its rules are unit-tested without a server. Addresses
 * are parsed (and bad ones refused) before any provider is touched.
 */
public final class Mailbox {
  private final Map<String, MailboxProvider> providers = new TreeMap<>();
  private final Clock clock;

  public Mailbox() {
    this(Clock.systemUTC());
  }

  public Mailbox(Clock clock) {
    this.clock = clock;
  }

  /** Registers a provider for its scheme; a second provider for the same scheme is refused. */
  public synchronized Mailbox register(MailboxProvider provider) {
    if (providers.containsKey(provider.scheme())) {
      throw new MailboxException(
          ErrorCode.DUPLICATE_PROVIDER,
          "A provider for '" + provider.scheme() + ":' is already registered.");
    }
    providers.put(provider.scheme(), provider);
    return this;
  }

  /** The provider for a scheme ({@code "mem"} or {@code "mem:"}), if registered. */
  public synchronized Optional<MailboxProvider> provider(String scheme) {
    String key = scheme.endsWith(":") ? scheme.substring(0, scheme.length() - 1) : scheme;
    return Optional.ofNullable(providers.get(key.toLowerCase(java.util.Locale.ROOT)));
  }

  /**
   * The provider for a scheme, or a {@link ErrorCode#UNKNOWN_SCHEME} refusal naming the known ones.
   */
  public MailboxProvider requireProvider(String scheme) {
    return provider(scheme)
        .orElseThrow(
            () ->
                new MailboxException(
                    ErrorCode.UNKNOWN_SCHEME,
                    "No provider is registered for '"
                        + scheme
                        + ":'; registered schemes: "
                        + schemes()
                        + "."));
  }

  public synchronized List<String> schemes() {
    return List.copyOf(providers.keySet());
  }

  /** Starts every provider. */
  public void start() {
    registered().forEach(MailboxProvider::start);
  }

  /** Stops every provider (subscriptions first). Keeps queued mail unless {@code purge}. */
  public void stop(boolean purge) {
    registered().forEach(p -> p.stop(purge));
  }

  /** Posts through the provider of the recipient's scheme; returns the stamped copy. */
  public MailMessage post(MailMessage message) {
    return requireProvider(message.to().scheme()).post(message);
  }

  public Subscription subscribe(String address, MailboxSubscriber subscriber) {
    MailAddress parsed = MailAddress.parse(address);
    return requireProvider(parsed.scheme()).subscribe(parsed, subscriber);
  }

  public Optional<MailMessage> fetch(String address) {
    MailAddress parsed = MailAddress.parse(address);
    return requireProvider(parsed.scheme()).fetch(parsed);
  }

  public AddressStatus status(String address) {
    MailAddress parsed = MailAddress.parse(address);
    return requireProvider(parsed.scheme()).status(parsed);
  }

  /**
   * Every address of every provider, sorted by address. A provider that cannot enumerate is listed
   * as unsupported and degrades the snapshot; so does any address that is not online.
   */
  public Snapshot snapshot() {
    List<AddressStatus> addresses = new ArrayList<>();
    List<String> unsupported = new ArrayList<>();
    for (MailboxProvider provider : registered()) {
      Optional<List<AddressStatus>> listed = provider.enumerate();
      if (listed.isPresent()) {
        addresses.addAll(listed.get());
      } else {
        unsupported.add(provider.scheme());
      }
    }
    addresses.sort(Comparator.comparing(AddressStatus::address));
    boolean allOnline =
        addresses.stream()
            .allMatch(a -> a.state() == AddressState.ONLINE || a.state() == AddressState.UNKNOWN);
    boolean allStarted = registered().stream().allMatch(MailboxProvider::isStarted);
    AddressState state;
    if (registered().isEmpty() || !allStarted) {
      state = AddressState.OFFLINE;
    } else if (!unsupported.isEmpty() || !allOnline) {
      state = AddressState.DEGRADED;
    } else {
      state = AddressState.ONLINE;
    }
    return new Snapshot(state, clock.instant(), addresses, unsupported);
  }

  private synchronized List<MailboxProvider> registered() {
    return List.copyOf(providers.values());
  }
}
