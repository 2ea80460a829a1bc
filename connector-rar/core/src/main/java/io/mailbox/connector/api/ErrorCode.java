package io.mailbox.connector.api;

/**
 * Stable codes for every refusal, of every module: the one catalogue ({@code
 * ErrorCodeCatalogueTest} fails the build on a code written anywhere else that is not declared
 * here, and on a code here that the documentation does not list). The code never changes meaning
 * once released, so scripts and dashboards can match on it; the message text around it may improve.
 * 1xxx: bad input to the kernel; 2xxx: the adapter and its connections; 3xxx: outbox and inbox;
 * 4xxx: the admin API and the console (HTTP 4xx); 5xxx: the server (HTTP 5xx).
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
   * The broker has no topic (or queue) for the address and the provider is not configured to create
   * one; the message names the topic and the consumer group. Nothing was sent or read.
   */
  UNKNOWN_TOPIC("MBX-2006"),
  /**
   * The broker lacks what the provider needs (a NATS server without JetStream, a stream that does
   * not exist and may not be created); the message names what is missing and the remedies.
   */
  BROKER_PREREQUISITE("MBX-2007"),
  /**
   * Two different consumer groups would share one broker consumer (their names escape alike, or an
   * existing consumer of that name belongs to another group or address); the message names both.
   * Nothing was read.
   */
  CONSUMER_NAME_COLLISION("MBX-2008"),
  /**
   * A post was not confirmed within the provider's publish bound (its {@code
   * ...PublishTimeoutMillis} setting): the message names the address and the bound. Not proof of
   * loss: the broker or store may still take it, so posting it again can duplicate it (its message
   * id lets an inbox drop the repeat). Retriable, like an outage.
   */
  PUBLISH_TIMEOUT("MBX-2009"),
  /**
   * No reply to a request within its timeout: the message names the address and the timeout. Not
   * proof that nothing happened: the responder may still act on the request. Retriable.
   */
  REQUEST_TIMEOUT("MBX-2010"),
  /**
   * The responder's handler failed: the message names the address and the remote error's class and
   * message (at most 512 characters), never the request's body.
   */
  REMOTE_HANDLER_FAILED("MBX-2011"),
  /**
   * An integration event definition or envelope was refused (reason: definition, malformed, type,
   * version, parse).
   */
  EVENT_REJECTED("MBX-3001"),
  /** An outbox envelope is over the size limit; the caller's transaction rolls back. */
  OUTBOX_ENVELOPE_TOO_LARGE("MBX-3002"),
  /** An inbox handler failed with attempts left (retriable: the delivery comes back). */
  INBOX_HANDLER_FAILED("MBX-3003"),
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
  OUTBOX_FIELD_TOO_LONG("MBX-3007"),
  /** Admin API: the body is not well-formed JSON, or not the JSON object the endpoint reads. */
  MALFORMED_BODY("MBX-4000"),
  /** Admin API and console: no credentials, or wrong ones. */
  NOT_SIGNED_IN("MBX-4001"),
  /** Admin API and console: signed in, but the role does not allow this (a viewer's change). */
  FORBIDDEN("MBX-4003"),
  /** Admin API: no such endpoint. */
  NOT_FOUND("MBX-4004"),
  /** Admin API: the endpoint exists but not with this HTTP method. */
  METHOD_NOT_ALLOWED("MBX-4005"),
  /** Admin API: the endpoint cannot answer in a media type the caller accepts. */
  NOT_ACCEPTABLE("MBX-4006"),
  /** Console accounts: a configured password is too weak to start with. */
  WEAK_PASSWORD("MBX-4010"),
  /** Admin API: the body is larger than {@code mailbox.api.max-body-bytes}. */
  BODY_TOO_LARGE("MBX-4013"),
  /** Admin API: the body is not {@code application/json}. */
  UNSUPPORTED_MEDIA_TYPE("MBX-4015"),
  /**
   * Admin API: a parameter or body field is missing, of the wrong type or out of range (it was
   * MBX-1008, the kernel's policy code, before the catalogue gave requests their own).
   */
  INVALID_REQUEST("MBX-4022"),
  /** Admin API and console: too many refused sign-ins for the account or client; wait. */
  TOO_MANY_SIGN_INS("MBX-4029"),
  /** The server failed; nothing about the request was wrong. The log has the details. */
  INTERNAL("MBX-5000"),
  /** The server or application is starting or stopping: retry after the time it gives. */
  SERVER_STOPPING("MBX-5003");

  private final String code;

  ErrorCode(String code) {
    this.code = code;
  }

  /** The stable, printable code, for example {@code MBX-1002}. */
  public String code() {
    return code;
  }
}
