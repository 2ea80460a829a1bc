package io.mailbox.connector.spi;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Identifiers for copies and leases: random version-4 UUIDs from a non-blocking generator. They
 * must be unique, not secret (senders cannot choose them: the send boundary strips system headers),
 * so {@code UUID.randomUUID()}'s SecureRandom, a hot spot on every post, is not needed.
 */
public final class Ids {
  private Ids() {}

  public static String next() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long most = (random.nextLong() & ~0xF000L) | 0x4000L;
    long least = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(most, least).toString();
  }

  /**
   * A name-based (version-3) UUID of {@code parts}: the same parts give the same id. For the key of
   * a foreign message a transport identifies itself (a stream and entry id, a topic, partition and
   * offset), so every delivery of that message has the same key. The same value as {@code
   * UUID.nameUUIDFromBytes} of the parts joined by NUL (keys already handed out stay valid), from a
   * digest kept per thread: looking the MD5 implementation up for every foreign record read was a
   * tenth of a Kafka reader's poll thread.
   */
  public static String stable(String... parts) {
    MessageDigest md5 = MD5.get();
    md5.reset();
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        md5.update((byte) 0);
      }
      // String.valueOf: a null part hashed as "null", as String.join did.
      md5.update(String.valueOf(parts[i]).getBytes(StandardCharsets.UTF_8));
    }
    byte[] hash = md5.digest();
    hash[6] = (byte) ((hash[6] & 0x0f) | 0x30); // version 3
    hash[8] = (byte) ((hash[8] & 0x3f) | 0x80); // IETF variant
    ByteBuffer bits = ByteBuffer.wrap(hash);
    return new UUID(bits.getLong(), bits.getLong()).toString();
  }

  private static final ThreadLocal<MessageDigest> MD5 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("MD5 is required of every Java platform", e);
            }
          });
}
