package io.mailbox.console.api;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Request checks shared by the resources. Each refuses with {@link ApiRefusal} (400, a stable code)
 * before anything changed, and never repeats the refused value. Parameters and fields are read
 * strictly: no coercion of a wrong type, no wrap-around of a large number.
 */
final class Requests {
  static final int MAX_LIMIT = 1000;

  private Requests() {}

  static String required(String name, String value) {
    if (value == null || value.isBlank()) {
      throw ApiRefusal.invalid("query parameter '" + name + "' is required");
    }
    return value.strip();
  }

  /**
   * The {@code limit} query parameter: absent means {@code fallback}; otherwise a decimal integer
   * from 1 to {@value #MAX_LIMIT}.
   */
  static int limit(String raw, int fallback) {
    return integer("limit", raw, fallback, 1, MAX_LIMIT);
  }

  /** A whole-number query parameter from {@code min} to {@code max}; absent means fallback. */
  static int integer(String name, String raw, int fallback, int min, int max) {
    if (raw == null) {
      return fallback;
    }
    String digits = raw.strip();
    if (!digits.matches("[+-]?[0-9]{1,10}")) {
      throw ApiRefusal.invalid(name + " must be a whole number from " + min + " to " + max);
    }
    long value = Long.parseLong(digits);
    if (value < min || value > max) {
      throw ApiRefusal.invalid(name + " must be a whole number from " + min + " to " + max);
    }
    return (int) value;
  }

  /** The request body as a JSON object; anything else is {@link ApiRefusal#MALFORMED_BODY}. */
  static JsonObject object(InputStream body, String expected) {
    if (body == null) {
      throw malformed(expected);
    }
    JsonStructure read;
    try (JsonReader reader = Json.createReader(body)) {
      read = reader.read();
    } catch (jakarta.json.JsonException | IllegalStateException e) {
      if (e.getCause() instanceof ApiRefusal tooLarge) {
        throw tooLarge;
      }
      throw malformed(expected);
    }
    if (!(read instanceof JsonObject object)) {
      throw malformed(expected);
    }
    return object;
  }

  private static ApiRefusal malformed(String expected) {
    return new ApiRefusal(400, ApiRefusal.MALFORMED_BODY, "expected a JSON body " + expected);
  }

  /**
   * The strings of the array {@code name} in a request body, 1 to {@link #MAX_LIMIT} of them;
   * anything else is refused with {@code expected} (what the body should look like).
   */
  static List<String> strings(JsonObject request, String name, String what, String expected) {
    if (request == null || !(request.get(name) instanceof JsonArray array)) {
      throw ApiRefusal.invalid("expected " + expected);
    }
    List<String> values = new ArrayList<>(array.size());
    for (JsonValue value : array) {
      if (!(value instanceof JsonString text)) {
        throw ApiRefusal.invalid(name + " must be strings");
      }
      values.add(text.getString());
    }
    if (values.isEmpty() || values.size() > MAX_LIMIT) {
      throw ApiRefusal.invalid(name + " must name 1 to " + MAX_LIMIT + " " + what);
    }
    return values;
  }

  /**
   * The address of a call that removes everything at it: {@code confirm} must repeat it exactly
   * (surrounding spaces aside), as the console asks it to be typed.
   */
  static String confirmed(String address, String confirm) {
    String target = required("address", address);
    if (confirm == null || !target.equals(confirm.strip())) {
      throw ApiRefusal.invalid("confirm must repeat the address exactly; nothing was removed");
    }
    return target;
  }

  /** A required string field. */
  static String string(JsonObject request, String name, String expected) {
    if (!(request.get(name) instanceof JsonString text) || text.getString().isBlank()) {
      throw ApiRefusal.invalid(name + " must be a non-blank string; expected " + expected);
    }
    return text.getString().strip();
  }

  /** A required boolean field: JSON {@code true} or {@code false}, nothing else. */
  static boolean bool(JsonObject request, String name, String expected) {
    JsonValue value = request.get(name);
    if (value != null && value.getValueType() == JsonValue.ValueType.TRUE) {
      return true;
    }
    if (value != null && value.getValueType() == JsonValue.ValueType.FALSE) {
      return false;
    }
    throw ApiRefusal.invalid(name + " must be true or false; expected " + expected);
  }

  /**
   * An optional whole-number field from {@code min} to {@code max}: a JSON number without a
   * fraction; a string, a fraction or a number out of range is refused, never coerced.
   */
  static int integer(JsonObject request, String name, int fallback, int min, int max) {
    JsonValue value = request.get(name);
    if (value == null) {
      return fallback;
    }
    String range = name + " must be a whole number from " + min + " to " + max;
    if (!(value instanceof JsonNumber number) || !number.isIntegral()) {
      throw ApiRefusal.invalid(range);
    }
    // Compared as a decimal first: 1e999999999 must not be expanded into a billion digits.
    BigDecimal exact = number.bigDecimalValue();
    if (exact.compareTo(BigDecimal.valueOf(min)) < 0
        || exact.compareTo(BigDecimal.valueOf(max)) > 0) {
      throw ApiRefusal.invalid(range);
    }
    return exact.intValueExact();
  }
}
