package io.mailbox.connector.api;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One letter: who it is for, who sent it, a text body (usually JSON) and string headers. Immutable;
 * the send boundary stamps each copy with its own {@link SystemHeaders#SEND_ID} and {@link
 * SystemHeaders#SENT_AT}.
 */
public final class MailMessage implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final String ABSENT = new String(); // "no send id", compared by identity

  private final String id;
  private final MailAddress to;
  private final MailAddress from;
  private final String body;
  private final Map<String, String> headers;
  private final Map<String, String> meta;
  // The send id, looked up once: the kernel and the providers read a copy's key at every hand-out
  // and settlement. Null until then (ABSENT: no send id). A benign race, like String's hash: every
  // thread that looks finds the same value.
  private transient String sendIdLookup;

  private MailMessage(Builder builder) {
    this.id = builder.id != null ? builder.id : UUID.randomUUID().toString();
    this.to = builder.to;
    this.from = builder.from;
    this.body = builder.body;
    this.headers = builder.headers.handOver();
    this.meta = builder.handOverMeta();
  }

  /** Starts a message to the given address; the address is parsed (and refused) right here. */
  public static Builder to(String address) {
    return new Builder().to(MailAddress.parse(address));
  }

  public static Builder to(MailAddress address) {
    return new Builder().to(address);
  }

  /** The sender-chosen id (a UUID when the sender chose none). It may repeat; it is not a key. */
  public String id() {
    return id;
  }

  public MailAddress to() {
    return to;
  }

  public Optional<MailAddress> from() {
    return Optional.ofNullable(from);
  }

  public String body() {
    return body;
  }

  /** All headers, sorted by name, read-only. */
  public Map<String, String> headers() {
    return headers;
  }

  /**
   * Application metadata that travels with the message but is not a transport header (a tenant, a
   * trace note). The kernel never reads it. Sorted, read-only.
   */
  public Map<String, String> meta() {
    return meta;
  }

  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name));
  }

  /** The per-copy key minted at the send boundary, if this copy has passed it. */
  public Optional<String> sendId() {
    String found = sendIdLookup;
    if (found == null) {
      found = headers.getOrDefault(SystemHeaders.SEND_ID, ABSENT);
      sendIdLookup = found;
    }
    return found == ABSENT ? Optional.empty() : Optional.of(found);
  }

  /** A builder pre-filled with this message, for stamping copies. */
  public Builder toBuilder() {
    // The builder shares this message's headers and meta until its first write to them: stamping a
    // copy is the kernel's per-message hot path.
    return new Builder(SortedHeaders.Writable.copyOf(headers), meta)
        .id(id)
        .to(to)
        .from(from)
        .body(body);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof MailMessage that
        && id.equals(that.id)
        && to.equals(that.to)
        && Objects.equals(from, that.from)
        && body.equals(that.body)
        && headers.equals(that.headers)
        && meta.equals(that.meta);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, to, from, body, headers, meta);
  }

  /** Prints identity only: bodies may hold personal data and never go to logs. */
  @Override
  public String toString() {
    return "MailMessage[id="
        + id
        + ", to="
        + to
        + ", sendId="
        + headers.get(SystemHeaders.SEND_ID)
        + "]";
  }

  /** Builds a {@link MailMessage}; {@link #build()} refuses one without recipient or body. */
  public static final class Builder {
    private String id;
    private MailAddress to;
    private MailAddress from;
    private String body;
    private final SortedHeaders.Writable headers;
    // Read-only (shared with the message this builder came from) until the first write copies it.
    private Map<String, String> meta;
    private boolean metaWritable;

    private Builder() {
      this(new SortedHeaders.Writable(), Map.of());
    }

    private Builder(SortedHeaders.Writable headers, Map<String, String> meta) {
      this.headers = headers;
      this.meta = meta;
    }

    public Builder id(String id) {
      this.id = id;
      return this;
    }

    public Builder to(MailAddress to) {
      this.to = to;
      return this;
    }

    public Builder from(String from) {
      return from(from == null ? null : MailAddress.parse(from));
    }

    public Builder from(MailAddress from) {
      this.from = from;
      return this;
    }

    public Builder body(String body) {
      this.body = body;
      return this;
    }

    public Builder header(String name, String value) {
      if (name == null || name.isBlank() || value == null) {
        throw new MailboxException(
            ErrorCode.INVALID_MESSAGE, "Header names must be non-blank and values non-null.");
      }
      headers.put(name, value);
      return this;
    }

    /** The {@value PublishOptions#ORDERING_KEY} header: same key, same partition or order. */
    public Builder orderingKey(String key) {
      return header(PublishOptions.ORDERING_KEY, key);
    }

    /** The {@value PublishOptions#DEDUPLICATION_ID} header: the transport's native dedupe. */
    public Builder deduplicationId(String id) {
      return header(PublishOptions.DEDUPLICATION_ID, id);
    }

    public Builder meta(String name, String value) {
      if (name == null || name.isBlank() || value == null) {
        throw new MailboxException(
            ErrorCode.INVALID_MESSAGE, "Meta names must be non-blank and values non-null.");
      }
      if (!metaWritable) {
        meta = new TreeMap<>(meta);
        metaWritable = true;
      }
      meta.put(name, value);
      return this;
    }

    public Builder removeHeader(String name) {
      headers.remove(name);
      return this;
    }

    private Map<String, String> handOverMeta() {
      if (!metaWritable) {
        return meta;
      }
      metaWritable = false;
      meta = Collections.unmodifiableMap(meta);
      return meta;
    }

    public MailMessage build() {
      if (to == null) {
        throw new MailboxException(
            ErrorCode.INVALID_MESSAGE, "A message needs a recipient address ('to').");
      }
      if (body == null) {
        throw new MailboxException(
            ErrorCode.INVALID_MESSAGE, "A message needs a body; use \"\" for an empty one.");
      }
      if (id != null && id.isBlank()) {
        throw new MailboxException(
            ErrorCode.INVALID_MESSAGE, "A message id, when given, must not be blank.");
      }
      return new MailMessage(this);
    }
  }
}
