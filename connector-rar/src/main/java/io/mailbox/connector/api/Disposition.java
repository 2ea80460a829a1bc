package io.mailbox.connector.api;

/**
 * How one delivery of a message was settled. One delivery gets exactly one disposition.
 *
 * <ul>
 *   <li>{@link #HANDLED}: done with this copy, never handed out again.
 *   <li>{@link #DISCARD}: never handed out again, and the provider tidies up by its own rules (a
 *       dead-letter copy where one is enabled).
 *   <li>{@link #UNHANDLED}: back into the mailbox, to be handed out again.
 * </ul>
 */
public enum Disposition {
  HANDLED,
  DISCARD,
  UNHANDLED;

  /**
   * Maps a push consumer's outcome: return = handled, a {@link RetriableDeliveryException} (even as
   * a cause) = unhandled, anything else = discard.
   */
  public static Disposition of(Throwable failure) {
    if (failure == null) {
      return HANDLED;
    }
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RetriableDeliveryException) {
        return UNHANDLED;
      }
    }
    return DISCARD;
  }
}
