package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.util.List;

/**
 * How one address's topic is read in this process, whichever consumer model reads it: an ordered
 * classic consumer group ({@link TopicReader}) or a share group ({@link ShareReader}). The provider
 * only talks to this; the model decides what settling, retrying and holding mean on the broker.
 */
interface AddressReader extends AutoCloseable {

  /** Starts reading (its own poll thread). */
  void start();

  /**
   * Up to {@code limit} records not handed out yet, oldest first, within {@code wait}. With {@code
   * settleAtOnce} they are settled once the caller has them; else they stay handed out (a leased
   * fetch) until settled or retried.
   */
  List<MailMessage> take(int limit, Duration wait, boolean settleAtOnce);

  /** A handed-out copy is done (handled, or stored elsewhere first). */
  void settle(String key);

  /**
   * An unhandled copy: handed out again (as {@code copy}, its next round) once {@code delay} has
   * passed. False when this reader does not hold it (any more).
   */
  boolean retryLater(String key, MailMessage copy, Duration delay, RetryTimer timer);

  /** Whether the record of copy {@code key} is handed out by this reader and not settled. */
  boolean holds(String key);

  /**
   * Whether the record at {@code offset} of {@code partition} is in this reader's hands or settled
   * here and not yet recorded as such by the broker: a peek does not list it as queued. Safe on any
   * thread.
   */
  boolean taken(int partition, long offset);

  /** Records handed out and not settled (waiting retries are not counted). */
  long inFlight();

  /** Unhandled records waiting for their retry. */
  long waitingForRetry();

  /**
   * Records settled here whose settlement the broker has not recorded yet (still counted as lag).
   */
  long settledNotCommitted();

  /** How long since the reader was made or last fetched from. */
  Duration idleFor();

  /** Stops reading within a bound; what was not settled is read again (by this group). */
  @Override
  void close();

  /** Schedules a task after a delay (the provider's scheduler). */
  interface RetryTimer {
    void after(Duration delay, Runnable task);
  }
}
