package io.mailbox.ejb.health;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.Snapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;

/**
 * Readiness of the resource adapter and every provider, read from a snapshot through a {@link
 * CachedProbe} (a provider whose store hangs answers "timeout" within the bound). Down when the
 * adapter cannot be used, a provider is stopped or unreachable, or an address is offline while its
 * provider is up; the data names each provider's reachability ({@code up}, {@code down}, {@code
 * unknown}) and the reasons. A provider that cannot list its addresses is a missing capability, not
 * a fault: reported ({@code unlisted:<scheme>}) but up. Counts and scheme names only, never an
 * address or an error text: the check's output is public.
 *
 * <p>Not a CDI bean by itself: the console war registers it once per server ({@code
 * ServerHealthChecks}), where every war bundling this module would have added its own copy.
 */
public final class AdapterHealthCheck implements HealthCheck {
  static final String NAME = "mailbox-adapter";

  private final CachedProbe<Snapshot> probe;

  public AdapterHealthCheck(MailboxConnectionFactory connections, Executor executor) {
    this(
        new CachedProbe<>(
            () -> {
              try (MailboxConnection connection = connections.getConnection()) {
                return connection.snapshot();
              }
            },
            executor));
  }

  AdapterHealthCheck(CachedProbe<Snapshot> probe) {
    this.probe = probe;
  }

  CachedProbe<Snapshot> probe() {
    return probe;
  }

  /**
   * Starts a probe now, without waiting for it: called once the application started, so that the
   * first poll does not pay for a cold start (the first read of a fresh server took over 2 s).
   */
  public void warmUp() {
    probe.refresh();
  }

  /**
   * The snapshot as this check's probe has it (cached for its TTL, waited for at most its bound):
   * the metrics' gauges share it, so a scrape adds no reads of the stores. Empty when the probe
   * timed out or failed.
   */
  public Optional<Snapshot> snapshot() {
    CachedProbe.Answer<Snapshot> answer = probe.answer();
    return answer.timedOut() || answer.failure() != null
        ? Optional.empty()
        : Optional.ofNullable(answer.value());
  }

  @Override
  public HealthCheckResponse call() {
    CachedProbe.Answer<Snapshot> answer = probe.answer();
    if (answer.timedOut()) {
      return down("timeout");
    }
    if (answer.failure() != null) {
      return down(reasonFor(answer.failure()));
    }
    return describe(answer.value());
  }

  /** {@code adapter-unavailable}, with the error's stable code when it has one (never its text). */
  static String reasonFor(RuntimeException failure) {
    return failure instanceof MailboxException coded
        ? "adapter-unavailable:" + coded.errorCode().code()
        : "adapter-unavailable";
  }

  static HealthCheckResponse down(String reason) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("state", AddressState.OFFLINE.label());
    data.put("reasons", reason);
    data.put("boundMs", CachedProbe.BOUND.toMillis());
    return new HealthCheckResponse(NAME, Status.DOWN, Optional.of(data));
  }

  // Built with the public constructor rather than named(): no provider lookup, so it is
  // unit-testable.
  static HealthCheckResponse describe(Snapshot snapshot) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("state", snapshot.state().label());
    data.put("addresses", (long) snapshot.addressCount());
    data.put("unread", snapshot.unreadCount());
    data.put("inFlight", snapshot.inFlightCount());
    List<String> faults = new ArrayList<>();
    for (ProviderState provider : snapshot.providers()) {
      data.put("provider." + provider.scheme(), provider.reachability().label());
      if (!provider.started()) {
        faults.add("stopped:" + provider.scheme());
      } else if (provider.reachability() == Reachability.DOWN) {
        faults.add("unreachable:" + provider.scheme());
      }
    }
    boolean addressesOffline =
        snapshot.addresses().stream()
            .anyMatch(a -> a.state() == AddressState.OFFLINE || a.state() == AddressState.DEGRADED);
    if (faults.isEmpty() && addressesOffline) {
      faults.add("addresses-offline");
    }
    if (snapshot.providers().isEmpty()) {
      faults.add("no-providers");
    }
    List<String> reasons = new ArrayList<>(faults);
    snapshot.unsupportedProviders().forEach(scheme -> reasons.add("unlisted:" + scheme));
    data.put("reasons", String.join(",", reasons));
    Status status = faults.isEmpty() ? Status.UP : Status.DOWN;
    return new HealthCheckResponse(NAME, status, Optional.of(data));
  }
}
