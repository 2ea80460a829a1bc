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

  /** The attempt inside one delivery's retry chain (restarts at 1 when the message is requeued). */
  public static final String ATTEMPT = "mbx-attempt";

  /** The attempt cap of the retry policy, when one is set. */
  public static final String MAX_ATTEMPTS = "mbx-max-attempts";

  /**
   * Which hand-out round this is; accumulates across requeues (a provider's redelivery counter).
   */
  public static final String ROUND = "mbx-round";

  /**
   * Why a dead-letter record was given up: {@code fatal}, {@code retriable}, {@code consumer-nack}.
   */
  public static final String DEAD_LETTER_REASON = "mbx-dead-letter-reason";

  /** Attempts in the chain that died. */
  public static final String DEAD_LETTER_ATTEMPTS = "mbx-dead-letter-attempts";

  /** The round the message was on when it died. */
  public static final String DEAD_LETTER_ROUND = "mbx-dead-letter-round";

  /** A bounded description of the failure (type and message, never the payload). */
  public static final String DEAD_LETTER_ERROR = "mbx-dead-letter-error";

  /** The queue the record was given up from. */
  public static final String DEAD_LETTER_TOPIC = "mbx-dead-letter-topic";

  /** How deep in the dead-letter chain the record is (1 = first level). */
  public static final String DEAD_LETTER_DEPTH = "mbx-dead-letter-depth";

  /** {@code true} on a record parked at the end of the chain. */
  public static final String DEAD_LETTER_TERMINAL = "mbx-dead-letter-terminal";

  private SystemHeaders() {}

  public static boolean isSystemHeader(String name) {
    return name.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
  }

  /**
   * An integer header of a copy, or {@code fallback} when absent or malformed. Only ASCII digits
   * count: {@code Integer.parseInt} also reads other scripts' digits ("٣" as 3), which a foreign
   * producer's header should not pass for a number (found by MailMessageHeadersFuzzTest).
   */
  public static int intHeader(MailMessage message, String name, int fallback) {
    String value = message.header(name).orElse(null);
    if (value == null || !ASCII_INTEGER.matcher(value).matches()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      return fallback; // beyond an int
    }
  }

  private static final java.util.regex.Pattern ASCII_INTEGER =
      java.util.regex.Pattern.compile("[+-]?[0-9]{1,10}");
}
