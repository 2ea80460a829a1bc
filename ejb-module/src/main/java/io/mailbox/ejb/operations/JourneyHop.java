package io.mailbox.ejb.operations;

import java.time.Instant;
import java.util.List;

/**
 * One place a searched message was found, as the journey lists it.
 *
 * @param at when it got there (written, sent, queued, given up, marked); {@code null} when the
 *     store keeps no time for it (listed last)
 * @param hop {@code outbox}, {@code queued}, {@code in-flight}, {@code dead-letter}, {@code parked}
 *     or {@code inbox}
 * @param where the topic and address, the address, or the consumer
 * @param state what it is there: the row's or marker's status, or the copy's state
 * @param detail attempts, the last error (cut), the dead letter's reason
 * @param key what an action on this hop names: the row id, the copy key or the marker id
 * @param actions what an operator may do here: {@code release-retry}, {@code release-discard},
 *     {@code replay}, {@code purge} or {@code open}
 */
public record JourneyHop(
    Instant at,
    String hop,
    String where,
    String state,
    String detail,
    String key,
    List<String> actions) {

  public JourneyHop {
    actions = List.copyOf(actions);
  }

  /** Where the message is, as a result of one search: the hops in time order, newest last. */
  public record Journey(String term, List<JourneyHop> hops, List<String> notes, boolean truncated) {
    public Journey {
      hops = List.copyOf(hops);
      notes = List.copyOf(notes);
    }
  }
}
