package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * Posts held by one physical connection while it takes part in a transaction. Between {@link
 * #begin()} and {@link #take()} / {@link #rollback()} every post is held; take hands them over in
 * the order they were posted (to be logged or delivered); rollback drops them, so nothing of a
 * rolled-back transaction is ever delivered.
 */
final class TransactionalPosts {
  private final List<MailMessage> held = new ArrayList<>();
  private boolean active;

  synchronized void begin() {
    // A second start for the same branch (join / resume) keeps what is already held.
    active = true;
  }

  synchronized boolean isActive() {
    return active;
  }

  /** Holds the message if a transaction is active; returns false (holding nothing) otherwise. */
  synchronized boolean holdIfActive(MailMessage message) {
    if (active) {
      held.add(message);
    }
    return active;
  }

  /**
   * Holds all the messages if a transaction is active; returns false (holding nothing) otherwise.
   */
  synchronized boolean holdAllIfActive(List<MailMessage> messages) {
    if (active) {
      held.addAll(messages);
    }
    return active;
  }

  synchronized int heldCount() {
    return held.size();
  }

  /**
   * Ends the transaction and returns every held post, in the order posted (posts issued together
   * stay together, so a {@code jdbc:} provider later stores them in shared transactions).
   */
  synchronized List<MailMessage> take() {
    List<MailMessage> taken = List.copyOf(held);
    held.clear();
    active = false;
    return taken;
  }

  /** Ends the transaction and drops every held post. */
  synchronized void rollback() {
    held.clear();
    active = false;
  }
}
