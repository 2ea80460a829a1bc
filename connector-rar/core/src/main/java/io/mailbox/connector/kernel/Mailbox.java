package io.mailbox.connector.kernel;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.RecoverResult;
import io.mailbox.connector.api.Snapshot;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * The kernel: a registry of providers by scheme, and the one door every operation goes through.
 * Plain Java (no JCA, CDI or JPA types) so its rules are unit-tested without a server. Addresses
 * are parsed, and bad ones refused, before any provider is touched.
 *
 * <p>Four verbs: <b>post</b> writes; <b>subscribe</b> registers a callback that runs when mail
 * arrives; <b>fetch</b> takes the next message yourself; <b>peek</b> looks without taking. A post
 * goes to every subscriber present at that moment or, when there is none, to the queue — never
 * both.
 */
public final class Mailbox {
  private static final Logger LOG = Logger.getLogger(Mailbox.class.getName());

  private final RequestReply requests = new RequestReply();
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
    provider.registered();
    return this;
  }

  /**
   * The provider for a scheme ({@code "mem"} or {@code "mem:"}), if registered (lenient lookup).
   */
  public synchronized Optional<MailboxProvider> provider(String scheme) {
    String key = scheme.endsWith(":") ? scheme.substring(0, scheme.length() - 1) : scheme;
    return Optional.ofNullable(providers.get(key.toLowerCase(Locale.ROOT)));
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

  /** Whether {@code operation} (a {@link Capabilities} name) is possible at {@code address}. */
  public boolean can(String operation, String address) {
    MailAddress parsed = MailAddress.parse(address);
    return requireProvider(parsed.scheme()).can(operation, parsed);
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /** Starts every provider. */
  public void start() {
    registered().forEach(MailboxProvider::start);
  }

  /** Stops every provider (subscriptions first). Keeps queued mail unless {@code purge}. */
  public void stop(boolean purge) {
    requests.close();
    registered().forEach(p -> p.stop(purge));
  }

  /**
   * Drops every provider's queued and in-flight messages; subscriptions and parked records stay.
   */
  public long clear() {
    return registered().stream().mapToLong(MailboxProvider::clear).sum();
  }

  // ---- the four verbs -------------------------------------------------------------------------

  /** Posts through the provider of the recipient's scheme; returns the stamped copy. */
  public MailMessage post(MailMessage message) {
    return requireProvider(message.to().scheme()).post(message);
  }

  /**
   * Posts messages issued together (see {@link MailboxProvider#postAll}); every recipient's
   * provider is checked before anything is sent. Consecutive messages for the same provider go to
   * it in one call, so order is kept and a {@code jdbc:} run shares transactions.
   *
   * @return the stamped copies, in the order given
   */
  public List<MailMessage> postAll(List<MailMessage> messages) {
    messages.forEach(message -> requireProvider(message.to().scheme()));
    List<MailMessage> stamped = new ArrayList<>(messages.size());
    int runStart = 0;
    for (int i = 1; i <= messages.size(); i++) {
      String scheme = messages.get(runStart).to().scheme();
      if (i == messages.size() || !messages.get(i).to().scheme().equals(scheme)) {
        stamped.addAll(requireProvider(scheme).postAll(messages.subList(runStart, i)));
        runStart = i;
      }
    }
    return stamped;
  }

  /** Sends a request and waits for its reply ({@link RequestReply}: MBX-2010, MBX-2011). */
  public MailMessage request(MailAddress address, MailMessage request, Duration timeout) {
    return requests.request(requireProvider(address.scheme()), address, request, timeout);
  }

  /** Answers the requests to {@code address} until unsubscribed ({@link RequestReply}). */
  public Subscription respond(MailAddress address, RequestReply.Responder responder) {
    return requests.respond(requireProvider(address.scheme()), address, responder);
  }

  /** Replies to a request taken from its request channel; {@code failure} null for a success. */
  public void reply(MailMessage request, String body, Throwable failure) {
    MailboxProvider provider = requireProvider(request.to().scheme());
    if (failure == null) {
      requests.reply(provider, request, body);
    } else {
      requests.replyFailure(provider, request, failure);
    }
  }

  /** Subscribes; returns once the provider established the subscription. */
  public Subscription subscribe(String address, MailboxSubscriber subscriber) {
    return subscribe(address, subscriber, SubscribeOptions.defaults());
  }

  /** Subscribes with per-subscription options (its own retry policy). */
  public Subscription subscribe(
      String address, MailboxSubscriber subscriber, SubscribeOptions options) {
    MailAddress parsed = MailAddress.parse(address);
    return requireProvider(parsed.scheme()).subscribe(parsed, subscriber, options);
  }

  /**
   * For a consumer that counts its own rounds (a {@code delivery=push} channel): one attempt per
   * hand-out; an unhandled copy goes back to the transport, which hands it out again, round raised.
   * {@code MBX-1007} unless the transport hands its backlog to subscribers ({@value
   * Capabilities#SUBSCRIBERS_TAKE_BACKLOG}): else a copy given back would wait for a fetch.
   */
  public Subscription subscribeCountingRounds(MailAddress address, MailboxSubscriber subscriber) {
    MailboxProvider provider = requireProvider(address.scheme());
    if (!provider.supports(Capabilities.SUBSCRIBERS_TAKE_BACKLOG)) {
      throw new MailboxException(
          ErrorCode.UNSUPPORTED_CAPABILITY,
          address
              + " cannot be pushed to a channel (its provider does not hand its backlog to"
              + " subscribers): use delivery=fetch.");
    }
    return provider.subscribe(
        address, subscriber, SubscribeOptions.withRetry(RetryPolicy.of(1, Duration.ZERO)));
  }

  /** Takes the next queued message, auto-acknowledged. */
  public Optional<MailMessage> fetch(String address) {
    return fetch(MailAddress.parse(address));
  }

  public Optional<MailMessage> fetch(MailAddress address) {
    return fetch(address, FetchOptions.autoAck()).stream().findFirst().map(Delivery::message);
  }

  /** Fetches as the options say: auto-ack, under a lease (settle each delivery once), or peek. */
  public List<Delivery> fetch(String address, FetchOptions options) {
    return fetch(MailAddress.parse(address), options);
  }

  public List<Delivery> fetch(MailAddress address, FetchOptions options) {
    return requireProvider(address.scheme()).fetch(address, options);
  }

  /** Read-only copies of up to {@code limit} queued messages; changes nothing. */
  public List<MailMessage> peek(String address, int limit) {
    return peek(MailAddress.parse(address), limit);
  }

  public List<MailMessage> peek(MailAddress address, int limit) {
    return fetch(address, FetchOptions.peek(limit)).stream().map(Delivery::message).toList();
  }

  /**
   * Settles a leased copy by its key (from a {@link Delivery} or {@link #locate}) and lease id.
   * Handing it a sender's message id instead of a key returns false and touches nothing.
   */
  public boolean settle(String address, String key, String leaseId, Disposition disposition) {
    return settle(MailAddress.parse(address), key, leaseId, disposition);
  }

  public boolean settle(MailAddress address, String key, String leaseId, Disposition disposition) {
    return requireProvider(address.scheme()).settle(address, key, leaseId, disposition);
  }

  // ---- observation and repair -----------------------------------------------------------------

  public AddressStatus status(String address) {
    return status(MailAddress.parse(address));
  }

  public AddressStatus status(MailAddress address) {
    return requireProvider(address.scheme()).status(address);
  }

  /**
   * What went through each address of every provider since the adapter started ({@link
   * AddressTraffic}): in-memory counters, read without touching a store or a broker.
   */
  public List<AddressTraffic> traffic() {
    List<AddressTraffic> all = new ArrayList<>();
    registered().forEach(provider -> all.addAll(provider.traffic()));
    return all;
  }

  /**
   * Every address of every provider, sorted by address, and each provider's state. A provider that
   * cannot enumerate is listed as unsupported and degrades the snapshot; a stopped or unreachable
   * provider, or one whose listing failed, makes it offline while the others are still listed.
   */
  public Snapshot snapshot() {
    List<AddressStatus> addresses = new ArrayList<>();
    List<String> unsupported = new ArrayList<>();
    List<ProviderState> providers = new ArrayList<>();
    for (MailboxProvider provider : registered()) {
      Reachability reachability = provider.reachability();
      try {
        Optional<List<AddressStatus>> listed = provider.enumerate();
        if (listed.isPresent()) {
          addresses.addAll(listed.get());
          if (reachability == Reachability.UNKNOWN) {
            reachability = Reachability.UP; // it answered the listing: the evidence it has
          }
        } else {
          unsupported.add(provider.scheme());
        }
      } catch (RuntimeException e) {
        // One provider's store failing must not hide the others: it is reported down instead.
        // The exception's class only: a driver's message may carry a host or a user name.
        LOG.fine(() -> provider.scheme() + ": listing failed (" + e.getClass().getName() + ")");
        reachability = Reachability.DOWN;
      }
      providers.add(new ProviderState(provider.scheme(), provider.isStarted(), reachability));
    }
    addresses.sort(Comparator.comparing(AddressStatus::address));
    boolean allHealthy =
        addresses.stream()
            .allMatch(a -> a.state() == AddressState.ONLINE || a.state() == AddressState.UNKNOWN);
    // A broker that cannot be reached takes the snapshot offline (health goes down) until it
    // answers again; its addresses are listed as offline meanwhile.
    boolean allServing = providers.stream().allMatch(ProviderState::serving);
    AddressState state;
    if (providers.isEmpty() || !allServing) {
      state = AddressState.OFFLINE;
    } else if (!unsupported.isEmpty() || !allHealthy) {
      state = AddressState.DEGRADED;
    } else {
      state = AddressState.ONLINE;
    }
    return new Snapshot(state, clock.instant(), addresses, unsupported, providers);
  }

  /**
   * Reclaims the expired leases of one address. {@code supported = false}: the provider has none.
   */
  public RecoverResult recover(String address) {
    return recover(MailAddress.parse(address));
  }

  public RecoverResult recover(MailAddress address) {
    return requireProvider(address.scheme()).recover(address);
  }

  /** Reclaims expired leases everywhere it can; providers that cannot list or recover are named. */
  public RecoverResult recover() {
    long reclaimed = 0;
    Map<MailAddress, Long> byAddress = new HashMap<>();
    List<String> unsupported = new ArrayList<>();
    for (MailboxProvider provider : registered()) {
      Optional<List<AddressStatus>> listed = provider.enumerate();
      if (listed.isEmpty() || !provider.supports(Capabilities.RECOVER)) {
        unsupported.add(provider.scheme());
        continue;
      }
      for (AddressStatus status : listed.get()) {
        RecoverResult one = provider.recover(status.address());
        reclaimed += one.reclaimed();
        byAddress.putAll(one.byAddress());
      }
    }
    return new RecoverResult(reclaimed, unsupported.isEmpty(), byAddress, unsupported);
  }

  /** Every copy of a sender's message id in every provider that can look, with its key. */
  public List<LocatedCopy> locate(String messageId) {
    return registered().stream()
        .filter(provider -> provider.supports(Capabilities.LOCATE))
        .flatMap(provider -> provider.locate(messageId).stream())
        .toList();
  }

  /** Records parked at {@code address}: never handed out again, readable only here. */
  public List<MailMessage> peekParked(String address, int limit) {
    return peekParked(MailAddress.parse(address), limit);
  }

  public List<MailMessage> peekParked(MailAddress address, int limit) {
    return requireProvider(address.scheme()).peekParked(address, limit);
  }

  /** Removes every parked record of {@code address}; returns how many. */
  public int purgeParked(String address) {
    return purgeParked(address, null);
  }

  /** The copies of an address handed out under a lease and not settled. */
  public List<io.mailbox.connector.api.InFlightCopy> inFlight(String address, int limit) {
    return inFlight(MailAddress.parse(address), limit);
  }

  public List<io.mailbox.connector.api.InFlightCopy> inFlight(MailAddress address, int limit) {
    return requireProvider(address.scheme()).inFlight(address, limit);
  }

  /** Removes queued copies of an address: one by key, or all when {@code key} is null. */
  public int removeQueued(String address, String key) {
    return removeQueued(MailAddress.parse(address), key);
  }

  public int removeQueued(MailAddress address, String key) {
    return requireProvider(address.scheme()).removeQueued(address, key);
  }

  /** Where a give-up at {@code address} is archived; empty when dead letters are off. */
  public Optional<MailAddress> deadLetterTopic(String address) {
    return deadLetterTopic(MailAddress.parse(address));
  }

  public Optional<MailAddress> deadLetterTopic(MailAddress address) {
    return requireProvider(address.scheme()).deadLetterTopic(address);
  }

  /** Removes one parked record by its copy key (or all when {@code key} is null). */
  public int purgeParked(String address, String key) {
    return purgeParked(MailAddress.parse(address), key);
  }

  public int purgeParked(MailAddress address, String key) {
    return requireProvider(address.scheme()).purgeParked(address, key);
  }

  private synchronized List<MailboxProvider> registered() {
    return List.copyOf(providers.values());
  }
}
