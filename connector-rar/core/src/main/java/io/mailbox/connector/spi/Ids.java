package io.mailbox.connector.spi;

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
   * offset), so every delivery of that message has the same key.
   */
  public static String stable(String... parts) {
    return UUID.nameUUIDFromBytes(
            String.join("\u0000", parts).getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .toString();
  }
}
