package io.mailbox.ejb.outbox;

import io.mailbox.ejb.event.JsonP;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** A row's caller headers as stored in its {@code HEADERS} column: a JSON object of strings. */
final class OutboxHeaders {
  private OutboxHeaders() {}

  /** The JSON text, or null for no headers (most rows: no column value at all). */
  static String write(Map<String, String> headers) {
    if (headers.isEmpty()) {
      return null;
    }
    JsonObjectBuilder json = JsonP.PROVIDER.createObjectBuilder();
    new TreeMap<>(headers).forEach(json::add);
    return json.build().toString();
  }

  /** The headers of a stored text; none for null. A value that is not a string is skipped. */
  static Map<String, String> read(String stored) {
    if (stored == null || stored.isEmpty()) {
      return Map.of();
    }
    JsonObject json;
    try (var reader = JsonP.PROVIDER.createReader(new StringReader(stored))) {
      json = reader.readObject();
    }
    Map<String, String> headers = new TreeMap<>();
    for (Map.Entry<String, JsonValue> entry : json.entrySet()) {
      if (entry.getValue() instanceof JsonString text) {
        headers.put(entry.getKey(), text.getString());
      }
    }
    return Collections.unmodifiableMap(headers);
  }
}
