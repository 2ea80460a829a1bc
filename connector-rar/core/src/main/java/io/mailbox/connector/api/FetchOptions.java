package io.mailbox.connector.api;

import java.io.Serializable;
import java.time.Duration;

/**
 * How a fetch takes messages: auto-acknowledged (the default), with a lease ({@link
 * #leased(Duration)}), or read-only ({@link #peek(int)}). Contradictions are refused with {@link
 * ErrorCode#INVALID_FETCH_OPTIONS} when the options are built, before anything is taken.
 *
 * @param limit how many messages at most (1 to {@value #MAX_LIMIT})
 * @param manualAck whether the caller settles each message itself; the lease is {@code ackTimeout}
 * @param ackTimeout the lease of this fetch, fixed at hand-out; {@link Duration#ZERO} never
 *     expires; {@code null} means the default ({@link #DEFAULT_ACK_TIMEOUT})
 * @param peek read-only copies: nothing is taken, counted or refreshed
 */
public record FetchOptions(int limit, boolean manualAck, Duration ackTimeout, boolean peek)
    implements Serializable {

  /** The lease of a manual-ack fetch unless the fetch says otherwise. */
  public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(30);

  /** The most messages one fetch hands out. */
  public static final int MAX_LIMIT = 10_000;

  public FetchOptions {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw invalid("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
    if (peek && manualAck) {
      throw invalid("peek is read-only and cannot take a lease; drop manualAck or peek");
    }
    if (ackTimeout != null && ackTimeout.isNegative()) {
      throw invalid("ackTimeout must be zero (never expires) or positive, was " + ackTimeout);
    }
    if (ackTimeout != null && !manualAck) {
      throw invalid(
          "ackTimeout only applies to manual-ack fetches; use FetchOptions.leased(timeout)");
    }
  }

  private static MailboxException invalid(String why) {
    return new MailboxException(
        ErrorCode.INVALID_FETCH_OPTIONS, "Invalid fetch options: " + why + ".");
  }

  /** One message, auto-acknowledged. */
  public static FetchOptions autoAck() {
    return new FetchOptions(1, false, null, false);
  }

  /** One message under the default 30 s lease (manual ack). */
  public static FetchOptions leased() {
    return new FetchOptions(1, true, null, false);
  }

  /** One message under a lease of {@code ackTimeout} ({@link Duration#ZERO}: never expires). */
  public static FetchOptions leased(Duration ackTimeout) {
    return new FetchOptions(1, true, ackTimeout, false);
  }

  /** Up to {@code limit} read-only copies of queued messages. */
  public static FetchOptions peek(int limit) {
    return new FetchOptions(limit, false, null, true);
  }

  /** The same options for up to {@code newLimit} messages. */
  public FetchOptions limit(int newLimit) {
    return new FetchOptions(newLimit, manualAck, ackTimeout, peek);
  }

  /** The lease this fetch takes: its own timeout or the default. */
  public Duration effectiveAckTimeout() {
    return ackTimeout == null ? DEFAULT_ACK_TIMEOUT : ackTimeout;
  }
}
