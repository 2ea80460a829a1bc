package io.mailbox.examples.orders;

/**
 * How far {@link OrderDesk#place} got, seen by its caller after the call failed: a failure once
 * everything was written came from the container's commit, whose outcome the caller cannot know
 * (the database may have committed before the connection broke). Passed by reference: the desk is a
 * local bean in the same application.
 */
public final class PlacementProgress {
  private volatile boolean written;

  void markWritten() {
    written = true;
  }

  /** Whether the order and its events were all written before the call failed. */
  public boolean written() {
    return written;
  }
}
