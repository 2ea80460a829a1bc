package io.mailbox.benchmarks.soak;

import java.util.BitSet;

/**
 * What became of each message of a run, by its number: handled or dead-lettered, each at most once.
 * Fixed size (two bits a message, allocated up front), so the ledger itself never makes the heap
 * series grow. Called from the posting thread and the providers' timer threads.
 */
final class SoakLedger {
  private final int messages;
  private final BitSet handled;
  private final BitSet deadLettered;
  private long duplicates;

  SoakLedger(int messages) {
    this.messages = messages;
    this.handled = new BitSet(messages);
    this.deadLettered = new BitSet(messages);
  }

  /** Records that message {@code n} was handled; a second outcome for it counts as a duplicate. */
  synchronized void handled(int n) {
    if (known(n)) {
      duplicates++;
    } else {
      handled.set(n);
    }
  }

  /** Records that message {@code n} reached a dead-letter address. */
  synchronized void deadLettered(int n) {
    if (known(n)) {
      duplicates++;
    } else {
      deadLettered.set(n);
    }
  }

  private boolean known(int n) {
    return handled.get(n) || deadLettered.get(n);
  }

  synchronized int handledCount() {
    return handled.cardinality();
  }

  synchronized int deadLetteredCount() {
    return deadLettered.cardinality();
  }

  /** Messages with no outcome yet: after the final drain, lost ones. */
  synchronized int missing() {
    return messages - handled.cardinality() - deadLettered.cardinality();
  }

  /** Outcomes beyond the first for one message (a redelivery applied twice). */
  synchronized long duplicates() {
    return duplicates;
  }
}
