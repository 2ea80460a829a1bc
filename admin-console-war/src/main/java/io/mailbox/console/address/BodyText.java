package io.mailbox.console.address;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.JsonWriterFactory;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonParser;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.Map;
import java.util.Optional;

/**
 * A message body as the detail panel shows it: JSON indented when the whole body is JSON, the text
 * as sent otherwise, at most {@link #SHOWN_CHARS} characters (the copy button copies it all).
 */
final class BodyText {
  static final int SHOWN_CHARS = 65_536;
  private static final JsonWriterFactory PRETTY =
      Json.createWriterFactory(Map.of(JsonGenerator.PRETTY_PRINTING, true));

  private BodyText() {}

  /** The body indented, when it is one JSON value and nothing else. */
  static Optional<String> prettyJson(String body) {
    String trimmed = body.strip();
    if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) {
      return Optional.empty();
    }
    try (JsonParser parser = Json.createParser(new StringReader(trimmed))) {
      parser.next();
      JsonValue value = parser.getValue();
      if (parser.hasNext()) {
        return Optional.empty(); // more after the first value: text that starts like JSON
      }
      StringWriter text = new StringWriter();
      try (JsonWriter writer = PRETTY.createWriter(text)) {
        writer.write(value);
      }
      return Optional.of(text.toString().strip());
    } catch (JsonException | IllegalStateException notJson) {
      return Optional.empty();
    }
  }

  /** What the panel shows: the indented JSON or the text, cut at {@link #SHOWN_CHARS}. */
  static String shown(String body) {
    String text = prettyJson(body).orElse(body);
    return text.length() <= SHOWN_CHARS
        ? text
        : text.substring(0, SHOWN_CHARS)
            + "\n… ("
            + text.length()
            + " characters, first "
            + SHOWN_CHARS
            + " shown; Copy body copies all)";
  }
}
