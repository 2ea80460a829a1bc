package io.mailbox.ejb.outbox;

/** What a sweep, or one batch of it, did so far; becomes the {@link SweepResult}. */
final class RelayTally {
  int scanned;
  int published;
  int retried;
  int failed;
  int blocked;
  int overlaps;

  void count(RowSettlement.Outcome outcome) {
    switch (outcome) {
      case RETRY -> retried++;
      case FAILED -> failed++;
      case LOST -> overlaps++;
      case RETURNED -> blocked++;
    }
  }

  /** Adds a finished batch's counts. */
  void add(RelayTally batch) {
    scanned += batch.scanned;
    published += batch.published;
    retried += batch.retried;
    failed += batch.failed;
    blocked += batch.blocked;
    overlaps += batch.overlaps;
  }

  SweepResult result(boolean lapEnded) {
    return new SweepResult(scanned, published, retried, failed, blocked, overlaps, lapEnded);
  }
}
