package io.mailbox.ejb.event;

import io.mailbox.ejb.event.IntegrationEventRejectedException.Reason;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The portable envelope of an integration event: id, type, version, occurredAt (an RFC 3339 instant
 * with an explicit zone), data, and the optional causal fields. Validated when built and when
 * parsed; unknown extra fields are accepted and kept, so an additive change on the producer is
 * never a coordinated deployment.
 */
public final class IntegrationEventEnvelope {
  // RFC 3339: full date, time to at least seconds, explicit Z or offset; its section 5.6 allows
  // 't' and 'z' in lower case. Date-only and zone-less forms are refused: a zone-less timestamp is
  // read in each consumer's own local time.
  private static final Pattern RFC3339 =
      Pattern.compile(
          "\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})");
  private static final Set<String> KNOWN =
      Set.of(
          "id",
          "type",
          "version",
          "occurredAt",
          "data",
          "correlationId",
          "causationId",
          "aggregateId",
          "aggregateVersion");

  private final JsonObject json;

  private IntegrationEventEnvelope(JsonObject json) {
    this.json = json;
  }

  /** A new envelope for {@code data} of {@code definition}, occurring now. */
  public static Builder of(IntegrationEventDefinition<?> definition, JsonValue data) {
    return new Builder(definition.type(), definition.version(), data);
  }

  /**
   * Reads a delivered envelope.
   *
   * @throws IntegrationEventRejectedException reason {@code MALFORMED} when it is not a valid
   *     envelope
   */
  public static IntegrationEventEnvelope parse(String text) {
    JsonObject object;
    try (JsonReader reader = JsonP.PROVIDER.createReader(new StringReader(text))) {
      object = reader.readObject();
    } catch (JsonParsingException | IllegalStateException | ClassCastException e) {
      throw malformed("not a JSON object");
    }
    return validated(object);
  }

  private static IntegrationEventEnvelope validated(JsonObject object) {
    requireString(object, "id", true);
    requireString(object, "type", true);
    if (!(object.get("version") instanceof JsonNumber version)
        || !version.isIntegral()
        || exactInt(version) < 1) {
      throw malformed("version must be an integer from 1 to " + Integer.MAX_VALUE);
    }
    String occurredAt = requireString(object, "occurredAt", true);
    if (!RFC3339.matcher(occurredAt).matches()) {
      throw malformed(
          "occurredAt must be an RFC 3339 instant with a zone, e.g. 2026-01-01T00:00:00Z");
    }
    try {
      OffsetDateTime.parse(occurredAt, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    } catch (DateTimeParseException e) {
      throw malformed("occurredAt is not a real instant");
    }
    if (!object.containsKey("data")) {
      throw malformed("data is missing (a payloadless event carries null)");
    }
    requireString(object, "correlationId", false);
    requireString(object, "causationId", false);
    requireString(object, "aggregateId", false);
    JsonValue aggregateVersion = object.get("aggregateVersion");
    if (aggregateVersion != null
        && aggregateVersion != JsonValue.NULL
        && !(aggregateVersion instanceof JsonNumber number && exactLong(number) != null)) {
      throw malformed("aggregateVersion must be an integer within 64 bits");
    }
    return new IntegrationEventEnvelope(object);
  }

  /**
   * The number as an int, or 0 when it is not one exactly: {@code intValue()} would read 2^32 + 1
   * as version 1.
   */
  private static int exactInt(JsonNumber number) {
    Long value = exactLong(number);
    return value == null || value > Integer.MAX_VALUE || value < Integer.MIN_VALUE
        ? 0
        : value.intValue();
  }

  /** The number as a long, or null when it has a fraction or does not fit. */
  private static Long exactLong(JsonNumber number) {
    try {
      // BigDecimal's exact conversion refuses a huge exponent by its precision, without expanding.
      return number.bigDecimalValue().longValueExact();
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private static String requireString(JsonObject object, String field, boolean required) {
    JsonValue value = object.get(field);
    if (value == null || value == JsonValue.NULL) {
      if (required) {
        throw malformed(field + " is missing");
      }
      return null;
    }
    if (!(value instanceof JsonString string) || string.getString().isBlank()) {
      throw malformed(field + " must be a non-empty string");
    }
    return string.getString();
  }

  private static IntegrationEventRejectedException malformed(String why) {
    return new IntegrationEventRejectedException(Reason.MALFORMED, "envelope " + why);
  }

  public String id() {
    return json.getString("id");
  }

  public String type() {
    return json.getString("type");
  }

  public int version() {
    return json.getInt("version");
  }

  public String occurredAt() {
    return json.getString("occurredAt");
  }

  public JsonValue data() {
    return json.get("data");
  }

  public Optional<String> correlationId() {
    return optionalString("correlationId");
  }

  public Optional<String> causationId() {
    return optionalString("causationId");
  }

  public Optional<String> aggregateId() {
    return optionalString("aggregateId");
  }

  public Optional<Long> aggregateVersion() {
    JsonValue value = json.get("aggregateVersion");
    return value instanceof JsonNumber number ? Optional.of(number.longValue()) : Optional.empty();
  }

  /** Fields this build does not know, as delivered. */
  public Map<String, JsonValue> extraFields() {
    return json.entrySet().stream()
        .filter(e -> !KNOWN.contains(e.getKey()))
        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  private Optional<String> optionalString(String field) {
    JsonValue value = json.get(field);
    return value instanceof JsonString string ? Optional.of(string.getString()) : Optional.empty();
  }

  /**
   * The causal fields for the next event a handler publishes: the chain root's correlation id (this
   * envelope's own id when it is the root) and this envelope's id as the direct cause.
   */
  public Map<String, String> causedBy() {
    return Map.of("correlationId", correlationId().orElse(id()), "causationId", id());
  }

  /** The wire form (compact JSON). */
  public String toJson() {
    return json.toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof IntegrationEventEnvelope that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return Objects.hash(json);
  }

  @Override
  public String toString() {
    return "IntegrationEventEnvelope[" + type() + " v" + version() + ", id=" + id() + "]";
  }

  /** Builds an envelope; {@link #build()} validates it exactly as a consumer would. */
  public static final class Builder {
    private final JsonObjectBuilder json = JsonP.PROVIDER.createObjectBuilder();

    private Builder(String type, int version, JsonValue data) {
      if (data == null) {
        throw malformed("data is missing: publish JsonValue.NULL for a payloadless event");
      }
      json.add("id", UUID.randomUUID().toString())
          .add("type", type)
          .add("version", version)
          .add("occurredAt", java.time.Instant.now().toString())
          .add("data", data);
    }

    public Builder id(String id) {
      json.add("id", id);
      return this;
    }

    public Builder occurredAt(OffsetDateTime when) {
      json.add("occurredAt", when.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
      return this;
    }

    public Builder correlationId(String correlationId) {
      json.add("correlationId", correlationId);
      return this;
    }

    public Builder causationId(String causationId) {
      json.add("causationId", causationId);
      return this;
    }

    /**
     * Copies {@code correlationId} and {@code causationId} from {@link #causedBy()} of a consumed
     * event.
     */
    public Builder causedBy(IntegrationEventEnvelope consumed) {
      consumed.causedBy().forEach(json::add);
      return this;
    }

    public Builder aggregate(String aggregateId, long aggregateVersion) {
      json.add("aggregateId", aggregateId).add("aggregateVersion", aggregateVersion);
      return this;
    }

    public IntegrationEventEnvelope build() {
      return validated(json.build());
    }
  }
}
