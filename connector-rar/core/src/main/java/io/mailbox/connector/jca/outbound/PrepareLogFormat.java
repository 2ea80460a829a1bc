package io.mailbox.connector.jca.outbound;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.MessageJson;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The prepare log's file format, version 1. An entry is one header line and a JSON payload, both
 * UTF-8:
 *
 * <pre>
 * mailbox-prepare-log 1 &lt;payload length in bytes&gt; &lt;CRC-32C of the payload, 8 hex digits&gt;\n
 * {"posts":[{"body":"..","from":null,"headers":{..},"id":"..","meta":{..},"to":"mem:a@b/c"}],
 *  "state":"prepared","xid":{"bqual":"AQ==","formatId":4711,"gtrid":"AQ=="}}
 * </pre>
 *
 * <p>{@code gtrid} and {@code bqual} are the branch's bytes in base64 (RFC 4648, padding optional);
 * {@code state} is {@code prepared} or {@code committed}; every post is a message with the fields
 * {@link MessageJson} writes (the same the {@code file:} and {@code jdbc:} stores keep), which is
 * everything needed to post it again, its sender-chosen id included. No Java serialization: an
 * entry can be read, and repaired, with any text editor.
 *
 * <p>The length and checksum let a reader tell a whole entry from a damaged one even if the file
 * system returned a file the write-then-rename protocol never meant to publish (a disk or a copy
 * gone wrong). A later version changes the number on the header line; this reader refuses any
 * version it does not know instead of guessing.
 */
final class PrepareLogFormat {
  static final String MAGIC = "mailbox-prepare-log";
  static final int VERSION = 1;

  private static final JsonProvider JSON = JsonProvider.provider();
  private static final HexFormat HEX = HexFormat.of();

  private PrepareLogFormat() {}

  /** Thrown when bytes are not a valid entry; the message names the defect, never the content. */
  static final class UnreadableEntryException extends Exception {
    private static final long serialVersionUID = 1L;

    UnreadableEntryException(String reason) {
      super(reason);
    }
  }

  static byte[] encode(LoggedBranch branch) {
    JsonArrayBuilder posts = JSON.createArrayBuilder();
    for (MailMessage post : branch.posts()) {
      posts.add(MessageJson.fields(post).add("to", post.to().toString()));
    }
    Base64.Encoder base64 = Base64.getEncoder();
    String payload =
        JSON.createObjectBuilder()
            .add("posts", posts)
            .add("state", branch.state().label())
            .add(
                "xid",
                JSON.createObjectBuilder()
                    .add("bqual", base64.encodeToString(branch.xid().getBranchQualifier()))
                    .add("formatId", branch.xid().getFormatId())
                    .add("gtrid", base64.encodeToString(branch.xid().getGlobalTransactionId())))
            .build()
            .toString();
    byte[] body = payload.getBytes(StandardCharsets.UTF_8);
    byte[] header =
        (MAGIC + " " + VERSION + " " + body.length + " " + crc(body) + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] entry = Arrays.copyOf(header, header.length + body.length);
    System.arraycopy(body, 0, entry, header.length, body.length);
    return entry;
  }

  static LoggedBranch decode(byte[] entry) throws UnreadableEntryException {
    int newline = indexOf(entry, (byte) '\n');
    if (newline < 0 || newline > 200) {
      throw new UnreadableEntryException("no header line");
    }
    String[] header = new String(entry, 0, newline, StandardCharsets.US_ASCII).split(" ");
    if (header.length != 4 || !MAGIC.equals(header[0])) {
      throw new UnreadableEntryException("not a prepare log entry");
    }
    if (!String.valueOf(VERSION).equals(header[1])) {
      throw new UnreadableEntryException(
          "format version " + header[1] + " is not one this adapter reads (" + VERSION + ")");
    }
    byte[] body = Arrays.copyOfRange(entry, newline + 1, entry.length);
    if (!String.valueOf(body.length).equals(header[2])) {
      throw new UnreadableEntryException(
          "payload is " + body.length + " bytes, the header says " + header[2] + " (torn)");
    }
    if (!crc(body).equals(header[3])) {
      throw new UnreadableEntryException("payload checksum does not match");
    }
    try {
      JsonObject json = parse(body);
      JsonObject xid = json.getJsonObject("xid");
      Base64.Decoder base64 = Base64.getDecoder();
      BranchId id =
          new BranchId(
              xid.getInt("formatId"),
              base64.decode(xid.getString("gtrid")),
              base64.decode(xid.getString("bqual")));
      LoggedBranch.State state = state(json.getString("state"));
      JsonArray array = json.getJsonArray("posts");
      List<MailMessage> posts = new ArrayList<>(array.size());
      for (JsonValue post : array) {
        posts.add(MessageJson.read(post.asJsonObject()));
      }
      return new LoggedBranch(id, state, posts);
    } catch (RuntimeException e) {
      // Parsers quote the offending text in their messages: name the failure's type only.
      throw new UnreadableEntryException("invalid payload (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static JsonObject parse(byte[] body) throws UnreadableEntryException {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(java.nio.ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException e) {
      throw new UnreadableEntryException("payload is not UTF-8");
    }
    try (var reader = JSON.createReader(new StringReader(text))) {
      return reader.readObject();
    }
  }

  private static LoggedBranch.State state(String label) {
    for (LoggedBranch.State state : LoggedBranch.State.values()) {
      if (state.label().equals(label)) {
        return state;
      }
    }
    throw new IllegalArgumentException("unknown state");
  }

  private static String crc(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return HEX.toHexDigits((int) crc.getValue());
  }

  private static int indexOf(byte[] bytes, byte wanted) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == wanted) {
        return i;
      }
    }
    return -1;
  }
}
