package io.mailbox.connector.provider.redis;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The machine's Redis (127.0.0.1:6379, started before the session; {@code .ci/run} starts it when
 * it is down). {@code MAILBOX_REDIS_URL} points the tests elsewhere. Tests use a key prefix of
 * their own and delete its keys afterwards ({@link #deleteKeys}).
 */
final class RedisServer {
  private RedisServer() {}

  static String url() {
    String url = System.getenv("MAILBOX_REDIS_URL");
    return url == null || url.isBlank() ? "redis://127.0.0.1:6379" : url;
  }

  /** A plain client of the machine's server. */
  static Jedis plain() {
    return new Jedis(java.net.URI.create(url()));
  }

  /** Deletes the keys whose names start with {@code prefix} (a test's own). */
  static void deleteKeys(String prefix) {
    try (Jedis jedis = plain()) {
      String cursor = ScanParams.SCAN_POINTER_START;
      do {
        ScanResult<String> page =
            jedis.scan(cursor, new ScanParams().match(prefix + "*").count(500));
        if (!page.getResult().isEmpty()) {
          jedis.del(page.getResult().toArray(String[]::new));
        }
        cursor = page.getCursor();
      } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }
  }
}
