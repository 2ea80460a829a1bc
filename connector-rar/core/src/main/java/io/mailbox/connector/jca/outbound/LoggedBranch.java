package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailMessage;
import java.util.List;
import java.util.Locale;

/**
 * One entry of the prepare log: a branch and the posts it holds, in the order they were posted.
 *
 * @param state {@link State#PREPARED} while the transaction's outcome is unknown (in doubt); {@link
 *     State#COMMITTED} once the transaction manager decided commit but some posts could not be
 *     delivered yet (the retrier owns them then)
 */
record LoggedBranch(BranchId xid, State state, List<MailMessage> posts) {

  LoggedBranch {
    posts = List.copyOf(posts);
  }

  LoggedBranch withState(State next, List<MailMessage> remaining) {
    return new LoggedBranch(xid, next, remaining);
  }

  /** Where a logged branch stands; its name is the entry's file suffix and its "state" field. */
  enum State {
    PREPARED,
    COMMITTED;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    String suffix() {
      return "." + label();
    }
  }
}
