package io.mailbox.connector.provider.file;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.MessageJson;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
    return MessageJson.fields(message)
        .add("read", read)
        .add("to", message.to().toString())
        .build()
        .toString();
  }

  /**
   * Reads one file.
   *
   * @throws IOException when it cannot be read, or is not a valid message (a corrupt file)
   */
  static Stored read(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    try {
      JsonObject json = MessageJson.parse(text);
      return new Stored(MessageJson.read(json), json.getBoolean("read", false));
    } catch (IllegalArgumentException | ClassCastException e) {
      throw new IOException("not a valid message file: " + e.getMessage(), e);
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
