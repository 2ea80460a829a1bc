package io.mailbox.connector.api;

/** How a provider sees one address (or the snapshot, all of them). */
public enum AddressState {
  /** Reachable and known. A drained but real address stays online. */
  ONLINE,
  /** The provider has never seen this address (never posted to, never subscribed). */
  UNKNOWN,
  /** Reachable, but something is off (a provider could not answer, a backlog is stuck). */
  DEGRADED,
  /** Not reachable. */
  OFFLINE;

  /** Lower-case name as shown in the console and JSON. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
