package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Posts held by one physical connection while it takes part in a transaction. Between {@link
 * #begin()} and {@link #commit(Consumer)} / {@link #rollback()} every post is held; commit hands
 * them over in the order they were posted; rollback drops them, so nothing of a rolled-back
 * transaction is ever delivered.
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
   * Ends the transaction and hands every held post, in order and in one call, to {@code deliver}
   * (so a {@code jdbc:} provider stores a transaction's posts together).
   */
  void commit(Consumer<List<MailMessage>> deliver) {
    List<MailMessage> toDeliver;
    synchronized (this) {
      toDeliver = List.copyOf(held);
      held.clear();
      active = false;
    }
    if (!toDeliver.isEmpty()) {
      deliver.accept(toDeliver);
    }
  }

  /** Ends the transaction and drops every held post. */
  synchronized void rollback() {
    held.clear();
    active = false;
  }
}
