package io.mailbox.ejb.operations;

import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Runs an operator's change between its audit record and the record's completion: the record is
 * committed first, and if that fails the change never runs; the change's outcome (or its failure)
 * completes the record. There is therefore never a change without a record, whatever fails.
 */
final class AuditedChange {
  private static final Logger LOG = Logger.getLogger(AuditedChange.class.getName());

  /** What a finished change did, for its record. */
  record Outcome(long affected, AuditEntry.Result result) {
    static Outcome succeeded(Number affected) {
      return new Outcome(affected.longValue(), AuditEntry.Result.SUCCEEDED);
    }
  }

  private AuditedChange() {}

  static <T> T run(
      AuditLog audit,
      String actor,
      String action,
      String target,
      Supplier<T> change,
      Function<T, Outcome> outcome) {
    String entry = audit.begin(actor, action, target);
    T done;
    try {
      done = change.get();
    } catch (RuntimeException | Error e) {
      complete(audit, entry, action, new Outcome(0, AuditEntry.Result.FAILED));
      throw e;
    }
    complete(audit, entry, action, outcome.apply(done));
    return done;
  }

  // The change ran: its answer stands even when the completion cannot be written, and the record
  // stays STARTED, which says "ran, outcome unknown" (never "nothing happened").
  private static void complete(AuditLog audit, String entry, String action, Outcome outcome) {
    try {
      audit.complete(entry, outcome.affected(), outcome.result());
    } catch (RuntimeException e) {
      LOG.warning(
          "Audit entry "
              + entry
              + " ("
              + action
              + ") stays STARTED: its completion failed ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }
}
