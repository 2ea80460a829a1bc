package io.mailbox.connector.api;

import java.util.Locale;

/**
 * Whether a provider's broker or store answered lately. Three states, because not every provider
 * can tell: one without a probe of its own is {@link #UNKNOWN} until a snapshot's listing of its
 * addresses answers for it.
 */
public enum Reachability {
  /** It answered: a probe's round trip, or the snapshot's listing of its addresses. */
  UP,
  /** It did not answer: a failed probe, a lost connection, or a listing that failed. */
  DOWN,
  /** Nobody asked: the provider has no probe and nothing answered for it yet. */
  UNKNOWN;

  /** {@link #UP} when a probe's last round trip {@code answered}, else {@link #DOWN}. */
  public static Reachability probed(boolean answered) {
    return answered ? UP : DOWN;
  }

  /** Lower-case name as shown in the console, health data and JSON. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
