package io.mailbox.connector.api;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;

/**
 * Every address of every registered provider at one moment, sorted by address, and how each
 * provider was ({@link #providers()}: started, reachable). A provider that cannot enumerate its
 * addresses is listed in {@link #unsupportedProviders()} and makes the snapshot {@link
 * AddressState#DEGRADED} instead of pretending its queues are empty.
 */
public record Snapshot(
    AddressState state,
    Instant takenAt,
    List<AddressStatus> addresses,
    List<String> unsupportedProviders,
    List<ProviderState> providers)
    implements Serializable {

  public Snapshot {
    addresses = List.copyOf(addresses);
    unsupportedProviders = List.copyOf(unsupportedProviders);
    providers = List.copyOf(providers);
  }

  public int addressCount() {
    return addresses.size();
  }

  public long unreadCount() {
    return addresses.stream().mapToLong(AddressStatus::unreadCount).sum();
  }

  public long inFlightCount() {
    return addresses.stream().mapToLong(AddressStatus::inFlightCount).sum();
  }
}
