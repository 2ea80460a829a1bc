package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.util.Map;
import java.util.TreeMap;

/**
 * A message as JSON with sorted keys ({@code body, from, headers, id, meta, to}, plus whatever a
 * transport adds), shared by the providers that store messages as text (files, database rows).
 */
public final class MessageJson {
  // Looked up once: Json.createXxx() runs the provider lookup (a service-loader scan) on every
  // call, which cost more than the database insert on the jdbc: post path.
  private static final JsonProvider JSON = JsonProvider.provider();

  private MessageJson() {}

  /** The message's fields, in key order; a transport may add its own before building. */
  public static JsonObjectBuilder fields(MailMessage message) {
    JsonObjectBuilder json = JSON.createObjectBuilder().add("body", message.body());
    message
        .from()
        .ifPresentOrElse(
            from -> json.add("from", from.toString()), () -> json.add("from", JsonValue.NULL));
    return json.add("headers", sorted(message.headers()))
        .add("id", message.id())
        .add("meta", sorted(message.meta()));
  }

  /** The message alone, as compact JSON. */
  public static String write(MailMessage message) {
    return fields(message).add("to", message.to().toString()).build().toString();
  }

  /** Parses JSON text; throws {@link IllegalArgumentException} when it is not a message. */
  public static JsonObject parse(String text) {
    try (var reader = JSON.createReader(new StringReader(text))) {
      return reader.readObject();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not JSON: " + e.getClass().getSimpleName(), e);
    }
  }

  /**
   * Reads the message fields of a JSON object; throws {@link IllegalArgumentException} if invalid.
   */
  public static MailMessage read(JsonObject json) {
    try {
      MailMessage.Builder message =
          MailMessage.to(MailAddress.parse(json.getString("to")))
              .id(json.getString("id"))
              .body(json.getString("body"));
      if (json.get("from") instanceof JsonString from) {
        message.from(from.getString());
      }
      json.getJsonObject("headers")
          .forEach((name, value) -> message.header(name, ((JsonString) value).getString()));
      JsonObject meta = json.getJsonObject("meta");
      if (meta != null) {
        meta.forEach((name, value) -> message.meta(name, ((JsonString) value).getString()));
      }
      return message.build();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a valid message: " + e.getClass().getSimpleName(), e);
    }
  }

  private static JsonObjectBuilder sorted(Map<String, String> values) {
    JsonObjectBuilder object = JSON.createObjectBuilder();
    new TreeMap<>(values).forEach(object::add);
    return object;
  }
}
