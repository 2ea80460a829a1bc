package io.mailbox.connector.api;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state of one address. Only measurements every provider can make get a named field; a
 * provider's own bookkeeping goes into {@link #extensions()} under keys prefixed with its scheme
 * ({@code mem.subscriberCount}).
 *
 * @param address the canonical address
 * @param state how the provider sees it
 * @param exists whether the provider knows the address; {@code null} when it cannot tell
 * @param unreadCount messages waiting in the queue
 * @param inFlightCount messages handed out but not settled
 * @param lastActivity last post or hand-out; {@code null} when there is no record
 * @param extensions provider-prefixed extra measurements, sorted by key
 */
public record AddressStatus(
    MailAddress address,
    AddressState state,
    Boolean exists,
    long unreadCount,
    long inFlightCount,
    Instant lastActivity,
    Map<String, Object> extensions)
    implements Serializable {

  public AddressStatus {
    extensions = Collections.unmodifiableMap(new TreeMap<>(extensions));
  }

  /** The status of an address a provider has never seen. */
  public static AddressStatus unknown(MailAddress address) {
    return new AddressStatus(address, AddressState.UNKNOWN, false, 0, 0, null, Map.of());
  }
}
