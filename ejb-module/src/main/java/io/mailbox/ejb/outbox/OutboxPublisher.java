package io.mailbox.ejb.outbox;

import java.util.ArrayList;
import java.util.List;

/** Hands one outbox row to its transport; returns once the provider accepted it. */
@FunctionalInterface
public interface OutboxPublisher {
  /**
   * @param row the claimed row (address, envelope, id)
   * @throws Exception when the provider refused or did not confirm: the row is retried later
   */
  void publish(OutboxRow row) throws Exception;

  /**
   * Whether rows for {@code address} published in one {@link #publishAll} call are stored in the
   * order given, a row only if every earlier one of the call for that address was (the provider's
   * {@code ordered-batch}): then the relay puts several rows of one ordering key in one call. False
   * by default: a call holds one row per key, and a key's next row goes in a later call, after the
   * answer for its predecessor ({@link DestinationPublish}'s waves).
   */
  default boolean keepsOrderWithinCall(String address) {
    return false;
  }

  /**
   * Publishes rows issued together, in order, and returns once the transport answered for all of
   * them: per row, the exception that failed it, or {@code null}. By default one {@link #publish}
   * after another; a transport that can confirm many at once overrides it. Rows share an ordering
   * key only where {@link #keepsOrderWithinCall} said so, and then they share an address.
   */
  default List<Exception> publishAll(List<OutboxRow> rows) {
    List<Exception> failures = new ArrayList<>(rows.size());
    for (OutboxRow row : rows) {
      try {
        publish(row);
        failures.add(null);
      } catch (Exception e) {
        failures.add(e);
      }
    }
    return failures;
  }
}
