package io.mailbox.connector.provider.file;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One message as a file: JSON with sorted keys ({@code body, from, headers, id, meta, read, to}),
 * written to a temporary file, forced to disk, then renamed into place, so a reader sees a whole
 * message or none; the folder is forced too, so the rename survives a crash.
 */
final class MessageFile {
  private MessageFile() {}

  /** A message and its read flag, as stored. */
  record Stored(MailMessage message, boolean read) {}

  static String serialize(MailMessage message, boolean read) {
    JsonObjectBuilder json = Json.createObjectBuilder().add("body", message.body());
    message
        .from()
        .ifPresentOrElse(
            from -> json.add("from", from.toString()), () -> json.add("from", JsonValue.NULL));
    json.add("headers", sorted(message.headers()))
        .add("id", message.id())
        .add("meta", sorted(message.meta()))
        .add("read", read)
        .add("to", message.to().toString());
    return json.build().toString();
  }

  private static JsonObjectBuilder sorted(Map<String, String> values) {
    JsonObjectBuilder object = Json.createObjectBuilder();
    new TreeMap<>(values).forEach(object::add);
    return object;
  }

  /**
   * Reads one file.
   *
   * @throws IOException when it cannot be read, or is not a valid message (a corrupt file)
   */
  static Stored read(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    try (var reader = Json.createReader(new StringReader(text))) {
      JsonObject json = reader.readObject();
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
      return new Stored(message.build(), json.getBoolean("read", false));
    } catch (RuntimeException e) {
      throw new IOException("not a valid message file: " + e.getClass().getSimpleName(), e);
    }
  }

  /**
   * Writes {@code content} to {@code target} atomically: temp file, fsync, rename, fsync folder.
   */
  static void writeAtomically(Path target, String content) throws IOException {
    Path folder = target.getParent();
    Files.createDirectories(folder);
    Path temporary = folder.resolve(".tmp-" + UUID.randomUUID());
    try (FileChannel channel =
        FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      channel.force(true);
    }
    try {
      Files.move(
          temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.deleteIfExists(temporary);
      throw new IOException("the file system cannot rename atomically: " + folder, e);
    }
    forceFolder(folder);
  }

  /** Makes a rename in {@code folder} durable (supported on Linux; a no-op where it is not). */
  static void forceFolder(Path folder) {
    try (FileChannel directory = FileChannel.open(folder, StandardOpenOption.READ)) {
      directory.force(true);
    } catch (IOException | UnsupportedOperationException ignored) {
      // Some platforms cannot open a directory for syncing; the rename itself is still atomic.
    }
  }
}
