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
   * Publishes rows issued together (never two of one ordering key), in order, and returns once the
   * transport answered for all of them: per row, the exception that failed it, or {@code null}. By
   * default one {@link #publish} after another; a transport that can confirm many at once overrides
   * it.
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
