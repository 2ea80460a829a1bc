package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.Backoff;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.SubscriberThreads;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * How the reader thread of an address ({@link SubscriberThreads}) reads Redis. The reader has a
 * connection of its own and blocks on it for new entries ({@code redisBlockMillis}); every second
 * it also runs a reclaim pass, so entries a crashed process left pending, and entries handed back
 * for a retry, come out again. It reads while fewer than {@value #MAX_UNSETTLED} entries of the
 * address are unsettled here; the acknowledgements of what a batch settled at once go to Redis
 * together after it. While it hands a batch over, the next read is already on its way ({@link
 * ReaderConnection}). A failing read (Redis away) is retried after a pause doubling to 10 s; its
 * connection is dropped, and with it any read Redis may still answer.
 */
final class StreamReaders {
  static final int MAX_UNSETTLED = 1_000;
  private static final Logger LOG = Logger.getLogger(StreamReaders.class.getName());
  private static final int BATCH = 256;

  private final RedisLink link;
  private final GroupReads reads;
  private final Function<MailAddress, String> stream;
  private final int blockMillis;
  private final BiConsumer<MailAddress, List<GroupReads.Taken>> deliver;
  private final ToLongFunction<MailAddress> unsettled;
  private final Consumer<Runnable> inBatch;
  private final SubscriberThreads threads =
      new SubscriberThreads("mailbox-redis-reader-", this::read);

  StreamReaders(
      RedisLink link,
      GroupReads reads,
      Function<MailAddress, String> stream,
      int blockMillis,
      BiConsumer<MailAddress, List<GroupReads.Taken>> deliver,
      ToLongFunction<MailAddress> unsettled,
      Consumer<Runnable> inBatch) {
    this.link = link;
    this.reads = reads;
    this.stream = stream;
    this.blockMillis = blockMillis;
    this.deliver = deliver;
    this.unsettled = unsettled;
    this.inBatch = inBatch;
  }

  AutoCloseable add(MailAddress address, Receiver receiver) {
    return threads.add(address, receiver);
  }

  List<Receiver> receivers(MailAddress address) {
    return threads.receivers(address);
  }

  /** {@code last} while all of it is active, else the active receivers now. */
  List<Receiver> stillActive(MailAddress address, List<Receiver> last) {
    return threads.stillActive(address, last);
  }

  Set<MailAddress> addresses() {
    return threads.addresses();
  }

  /** Stops every reader (the provider stops); what they held is handed back by the provider. */
  void stopAll() {
    threads.stopAll();
  }

  private void read(MailAddress address, BooleanSupplier keepReading) {
    String key = stream.apply(address);
    ReaderConnection connection = null;
    int failures = 0;
    try {
      while (keepReading.getAsBoolean()) {
        try {
          if (connection == null) {
            connection = link.dedicated();
          }
          if (!connection.hasOutstanding()) {
            if (unsettled.applyAsLong(address) >= MAX_UNSETTLED) {
              Thread.sleep(5);
              continue;
            }
            List<GroupReads.Taken> reclaimed = reads.reclaimIfDue(key, GroupReads.RECLAIM_PAGE);
            hand(address, reclaimed);
            // While a reclaim pass brings entries back, new ones are read without waiting.
            reads.sendNew(connection, key, BATCH, reclaimed.isEmpty() ? blockMillis : 0);
          }
          List<GroupReads.Taken> batch = reads.answerNew(connection, key);
          link.answered();
          // Read ahead: the next batch is asked for before this one is handed over, so Redis and
          // the network work while the subscribers do. Only with room under the bound for it, and
          // only after a batch (after an empty answer the next read is a blocking one anyway).
          if (!batch.isEmpty()
              && keepReading.getAsBoolean()
              && unsettled.applyAsLong(address) + batch.size() + BATCH <= MAX_UNSETTLED) {
            reads.sendNew(connection, key, BATCH, blockMillis);
            hand(address, reads.reclaimIfDue(key, GroupReads.RECLAIM_PAGE));
          }
          hand(address, batch);
          failures = 0;
        } catch (InterruptedException stopping) {
          Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
          failures++;
          if (e instanceof JedisConnectionException) {
            link.failed("read " + key, e);
          } else {
            LOG.log(
                failures == 1 ? Level.WARNING : Level.FINE,
                "Could not read " + address + " from Redis (retrying): " + e.getClass().getName(),
                failures == 1 ? null : e);
          }
          connection = close(connection);
          SubscriberThreads.pause(
              Backoff.after(failures, Duration.ofMillis(200), Duration.ofSeconds(10)));
        }
      }
      handBackReadAhead(address, key, connection);
    } finally {
      close(connection);
    }
  }

  /**
   * The reader stops with a read ahead outstanding: what it brought is pending with this process
   * but held by nobody, so it is handed back at once (idle as if its lease ran out: the next
   * reclaim pass, here or in another process, takes it) instead of waiting out the lease.
   */
  private void handBackReadAhead(MailAddress address, String key, ReaderConnection connection) {
    if (connection == null || !connection.hasOutstanding()) {
      return;
    }
    try {
      List<GroupReads.Taken> readAhead = reads.answerNew(connection, key);
      reads.requeue(key, readAhead.stream().map(taken -> taken.entry().getID()).toList(), 0);
    } catch (RuntimeException e) {
      LOG.log(
          Level.FINE,
          "A stopping reader of "
              + address
              + " could not hand its read-ahead back; it comes back after the lease",
          e);
    }
  }

  private void hand(MailAddress address, List<GroupReads.Taken> batch) {
    if (!batch.isEmpty()) {
      inBatch.accept(() -> deliver.accept(address, batch));
    }
  }

  private static ReaderConnection close(ReaderConnection connection) {
    if (connection != null) {
      try {
        connection.close();
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "A Redis reader connection did not close cleanly", e);
      }
    }
    return null;
  }
}
