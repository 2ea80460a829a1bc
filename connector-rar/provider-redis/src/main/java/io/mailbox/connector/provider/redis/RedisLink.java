package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The provider's connections to Redis: a pool for commands (each bounded by the publish bound), a
 * connection of its own for each blocking reader ({@link #dedicated}) and one for the reachability
 * probe (a PING bounded by 2 s, its answer reused for the probe interval). Pooled connections that
 * fail are dropped and made again on the next use, so the provider reconnects by itself.
 *
 * <p>Connection errors are logged once per outage at WARNING, repeats at FINE and the recovery at
 * INFO ({@link #failed}, {@link #answered}); the password of the URL never reaches a log.
 */
final class RedisLink implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(RedisLink.class.getName());
  private static final int CONNECT_MILLIS = 5_000;
  private static final int PROBE_MILLIS = 2_000;
  private static final int POOL_SIZE = 32;
  private static final int[] MIN_VERSION = {6, 2}; // XPENDING IDLE

  private final RedisSettings settings;
  private final Clock clock;
  private final HostAndPort server;
  private volatile RedisClient client;
  private Jedis probe; // guarded by this
  private final java.util.concurrent.atomic.AtomicBoolean down =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile Instant probedAt = Instant.MIN;
  private volatile boolean lastProbe;

  RedisLink(RedisSettings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
    this.server = JedisURIHelper.getHostAndPort(settings.uri());
  }

  /**
   * Opens the pool and checks the server's version when it answers (Redis 6.2 or newer, else {@code
   * MBX-2007}); a server that does not answer yet is logged, and used once it does.
   */
  void start() {
    close();
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(POOL_SIZE);
    pool.setMaxIdle(POOL_SIZE);
    pool.setMaxWait(settings.publishTimeout());
    pool.setJmxEnabled(false);
    client =
        RedisClient.builder()
            .hostAndPort(server)
            .clientConfig(config((int) settings.publishTimeout().toMillis()))
            .poolConfig(pool)
            .build();
    String version;
    try {
      version = call("answer INFO", redis -> redis.info("server"));
    } catch (MailboxException unavailable) {
      LOG.warning(
          () ->
              "Redis at "
                  + settings.shownUrl()
                  + " does not answer yet; the redis: provider uses it when it does");
      return;
    }
    checkVersion(version);
  }

  private void checkVersion(String info) {
    String version =
        info.lines()
            .filter(line -> line.startsWith("redis_version:"))
            .map(line -> line.substring("redis_version:".length()).strip())
            .findFirst()
            .orElse("0");
    String[] parts = version.split("\\.");
    int major = parse(parts[0]);
    int minor = parts.length > 1 ? parse(parts[1]) : 0;
    if (major < MIN_VERSION[0] || (major == MIN_VERSION[0] && minor < MIN_VERSION[1])) {
      throw new MailboxException(
          ErrorCode.BROKER_PREREQUISITE,
          "Redis at "
              + settings.shownUrl()
              + " is version "
              + version
              + "; the redis: provider needs 6.2 or newer (XPENDING IDLE).");
    }
  }

  private static int parse(String number) {
    try {
      return Integer.parseInt(number.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private JedisClientConfig config(int socketMillis) {
    URI uri = settings.uri();
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(CONNECT_MILLIS)
            .socketTimeoutMillis(socketMillis)
            .blockingSocketTimeoutMillis(socketMillis)
            .clientName("mailbox")
            .ssl(JedisURIHelper.isRedisSSLScheme(uri));
    String password = JedisURIHelper.getPassword(uri);
    if (password != null) {
      config.user(JedisURIHelper.getUser(uri)).password(password);
    }
    if (JedisURIHelper.hasDbIndex(uri)) {
      config.database(JedisURIHelper.getDBIndex(uri));
    }
    return config.build();
  }

  /**
   * Runs commands on a pooled connection. A lost or refused connection becomes {@code MBX-2003}
   * naming {@code what} (logged once per outage); Redis's own errors pass through.
   */
  <T> T call(String what, Function<RedisClient, T> commands) {
    RedisClient current = client;
    if (current == null) {
      throw unavailable(what, null);
    }
    try {
      T result = commands.apply(current);
      answered();
      return result;
    } catch (JedisConnectionException | IllegalStateException e) {
      failed(what, e);
      throw unavailable(what, e);
    } catch (JedisDataException e) {
      throw new MailboxException(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "Redis at " + settings.shownUrl() + " refused to " + what + " (" + errorWord(e) + ").",
          e);
    }
  }

  /** Redis's error word (NOGROUP, WRONGTYPE, NOPERM, OOM, ...), never a command's arguments. */
  static String errorWord(JedisDataException e) {
    String message = e.getMessage() == null ? "" : e.getMessage().strip();
    int space = message.indexOf(' ');
    return space > 0 ? message.substring(0, space) : message;
  }

  /** Whether {@code e} (or its cause) is Redis's answer starting with {@code word}. */
  static boolean isRefusal(Throwable e, String word) {
    Throwable data = e instanceof JedisDataException ? e : e.getCause();
    return data instanceof JedisDataException refusal && errorWord(refusal).equals(word);
  }

  /**
   * A connection of a blocking reader's own, never shared: a read it abandoned (its socket timed
   * out) takes the connection with it, so no later command can receive what that read took.
   */
  ReaderConnection dedicated() {
    ReaderConnection connection =
        new ReaderConnection(
            server, config((int) settings.blockTime().toMillis() + CONNECT_MILLIS));
    connection.connect();
    return connection;
  }

  /** Whether Redis answered a PING within 2 s, reused for the probe interval. */
  boolean reachable() {
    Instant now = clock.instant();
    if (probedAt.plus(settings.probeInterval()).isAfter(now)) {
      return lastProbe;
    }
    boolean answered;
    synchronized (this) {
      try {
        if (probe == null || probe.isBroken() || !probe.isConnected()) {
          closeProbe();
          probe = new Jedis(server, config(PROBE_MILLIS));
        }
        answered = "PONG".equals(probe.ping());
      } catch (RuntimeException e) {
        closeProbe();
        answered = false;
      }
    }
    lastProbe = answered;
    probedAt = clock.instant();
    return answered;
  }

  /** A command failed for want of Redis: WARNING at the first of an outage, FINE after. */
  void failed(String what, Throwable e) {
    if (down.compareAndSet(false, true)) { // one WARNING per outage, whichever thread sees it
      lastProbe = false;
      LOG.warning(
          () ->
              "Lost Redis at "
                  + settings.shownUrl()
                  + " ("
                  + what
                  + ": "
                  + e.getClass().getSimpleName()
                  + "); the redis: provider retries");
    } else {
      LOG.log(Level.FINE, "Redis at " + settings.shownUrl() + " is still away (" + what + ")", e);
    }
  }

  /** A command was answered: an outage, if there was one, is over. */
  void answered() {
    if (down.compareAndSet(true, false)) {
      LOG.info(() -> "Redis at " + settings.shownUrl() + " answers again");
    }
  }

  MailboxException unavailable(String what, Throwable cause) {
    return new MailboxException(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "Redis at "
            + settings.shownUrl()
            + " did not "
            + what
            + (cause == null ? " (not connected)" : " (" + cause.getClass().getSimpleName() + ")")
            + ".",
        cause);
  }

  private void closeProbe() {
    if (probe != null) {
      try {
        probe.close();
      } catch (RuntimeException ignored) {
        // a broken probe connection: nothing to release
      }
      probe = null;
    }
  }

  @Override
  public synchronized void close() {
    closeProbe();
    RedisClient closing = client;
    client = null;
    if (closing != null) {
      closing.close();
    }
  }
}
