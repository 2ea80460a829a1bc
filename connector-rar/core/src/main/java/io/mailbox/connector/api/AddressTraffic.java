package io.mailbox.connector.api;

import java.io.Serializable;

/**
 * What went through one address since its provider started, as the kernel counted it: counters only
 * grow, and start again from zero when the adapter restarts (as every counter a metrics system
 * scrapes does). Gauges (unread, in flight, overdue) are in {@link AddressStatus}; these are the
 * events in between.
 *
 * @param address the canonical address, or {@value #OTHER} for the addresses of a provider past the
 *     kernel's bound of distinct addresses (their counts are kept, summed, not dropped)
 * @param scheme the provider's scheme
 * @param posted copies the transport accepted (on a durable provider: stored)
 * @param publishFailures copies whose post failed (a timed-out post may still arrive)
 * @param publishNanos time spent in the transport's send for the posts counted in {@code posted}
 *     and {@code publishFailures}; a {@code postAll} charges each copy the whole call
 * @param delivered copies handed out, to a subscriber or a fetch (every redelivery counts again)
 * @param acknowledged copies settled as handled
 * @param retried attempts after a failed one: redeliveries of a retry policy and requeues
 * @param deadLettered copies given up and archived to their dead-letter topic
 * @param parked copies given up at the end of the dead-letter chain, kept at their address
 * @param dropped copies given up with no dead-letter queue configured (logged as a warning)
 */
public record AddressTraffic(
    String address,
    String scheme,
    long posted,
    long publishFailures,
    long publishNanos,
    long delivered,
    long acknowledged,
    long retried,
    long deadLettered,
    long parked,
    long dropped)
    implements Serializable {

  /** The address name under which the counts past the kernel's bound are summed. */
  public static final String OTHER = "other";
}
