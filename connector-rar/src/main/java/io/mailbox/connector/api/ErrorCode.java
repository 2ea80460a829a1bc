package io.mailbox.connector.api;

/**
 * Stable codes for every refusal. The code never changes meaning once released, so scripts and
 * dashboards can match on it; the message text around it may improve.
 */
public enum ErrorCode {
  /** The address text is not {@code scheme:user@host[/path]}. */
  MALFORMED_ADDRESS("MBX-1001"),
  /** The address carries a query or fragment, which would silently merge two mailboxes. */
  ADDRESS_HAS_QUERY_OR_FRAGMENT("MBX-1002"),
  /** No provider is registered for the address's scheme. */
  UNKNOWN_SCHEME("MBX-1003"),
  /** The message lacks something a post needs (a recipient, a body). */
  INVALID_MESSAGE("MBX-1004"),
  /** A provider with this scheme is already registered. */
  DUPLICATE_PROVIDER("MBX-1005"),
  /**
   * Fetch options that contradict each other or are out of range (peek with manual ack, limit 0).
   */
  INVALID_FETCH_OPTIONS("MBX-1006"),
  /** The provider does not declare the capability the call needs; nothing was changed. */
  UNSUPPORTED_CAPABILITY("MBX-1007"),
  /** A retry, dead-letter or lease setting is out of range. */
  INVALID_POLICY("MBX-1008"),
  /** The kernel or provider is not started (or was stopped). */
  NOT_STARTED("MBX-2001"),
  /** The connection handle was closed; get a new one from the factory. */
  CONNECTION_CLOSED("MBX-2002"),
  /** The resource adapter could not hand out a connection. */
  CONNECTION_UNAVAILABLE("MBX-2003"),
  /** An activation spec (MDB configuration) is incomplete or wrong. */
  INVALID_ACTIVATION("MBX-2004"),
  /**
   * A message created inside a JTA transaction reached its mailbox channel on another thread or
   * after that transaction ended (a reactive emitter hands messages over on whichever thread is
   * draining it). It is not written into a transaction it does not belong to; its sender's
   * transaction is rolled back instead. Retry the sender's work.
   */
  SENT_OUTSIDE_ITS_TRANSACTION("MBX-2005"),
  /**
   * An inbox delivery's envelope id is longer than the inbox can key (128 characters): parked at
   * once, never handed to the handler; ask its producer for shorter ids.
   */
  INBOX_ENVELOPE_ID_TOO_LONG("MBX-3004"),
  /**
   * A parked inbox delivery cannot be retried: the address it came from was not recorded (parked
   * before the inbox recorded it, or processed without one). Nothing was changed; discard it or
   * re-post the envelope by hand.
   */
  INBOX_NO_SOURCE_ADDRESS("MBX-3005"),
  /**
   * A parked inbox delivery cannot be retried: its envelope was too large to keep. Nothing was
   * changed; discard it, or have its producer send it again.
   */
  INBOX_NO_STORED_ENVELOPE("MBX-3006"),
  /**
   * An outbox write's envelope id, ordering key, tenant or address is longer than its column (128,
   * 255, 100, 1000 characters). Refused before anything is written; the caller's transaction rolls
   * back, as it would have at commit. Shorten the value.
   */
  OUTBOX_FIELD_TOO_LONG("MBX-3007");

  private final String code;

  ErrorCode(String code) {
    this.code = code;
  }

  /** The stable, printable code, for example {@code MBX-1002}. */
  public String code() {
    return code;
  }
}
