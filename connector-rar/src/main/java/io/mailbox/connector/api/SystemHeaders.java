package io.mailbox.connector.api;

/**
 * Header names the mailbox owns. Anything a sender sets under the {@link #PREFIX} is stripped at
 * the send boundary: trusting it would let a sender pick its own redelivery cap or forge a dead
 * letter.
 */
public final class SystemHeaders {
  /** Every system header starts with this. */
  public static final String PREFIX = "mbx-";

  /** The per-copy key minted at the send boundary; all bookkeeping is keyed on it. */
  public static final String SEND_ID = "mbx-send-id";

  /** When the copy passed the send boundary, ISO-8601 UTC. */
  public static final String SENT_AT = "mbx-sent-at";

  private SystemHeaders() {}

  public static boolean isSystemHeader(String name) {
    return name.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
  }
}
