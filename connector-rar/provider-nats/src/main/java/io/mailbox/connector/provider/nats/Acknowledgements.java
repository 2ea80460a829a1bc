package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Acknowledgements (ack, term) the server is known to have applied before the status could show
 * their messages as unread again: a reader's batch confirms all of its own with one request at its
 * end, any other is itself sent as a request and waits for its answer. Until a batch is confirmed
 * its acknowledgements are counted per address ({@link #unconfirmed}).
 */
final class Acknowledgements {
  private static final Logger LOG = Logger.getLogger(Acknowledgements.class.getName());
  private static final Duration CONFIRM_BOUND = Duration.ofSeconds(5);
  private static final byte[] IN_PROGRESS = "+WPI".getBytes(StandardCharsets.US_ASCII);

  private final Map<MailAddress, AtomicLong> unconfirmed = new ConcurrentHashMap<>();
  private final ThreadLocal<Map<MailAddress, Batch>> batch = new ThreadLocal<>();

  /** Acknowledgements of {@code address} sent by a batch and not confirmed yet. */
  long unconfirmed(MailAddress address) {
    AtomicLong count = unconfirmed.get(address);
    return count == null ? 0 : Math.max(0, count.get());
  }

  /** The provider stops: nothing is pending any more. */
  void clear() {
    unconfirmed.clear();
  }

  /** The message is done with ({@code ack}); see {@link #confirmed}. */
  void acked(MailAddress address, Message message) {
    confirmed(address, message, Kind.ACK);
  }

  /** The message is given up: never delivered again ({@code term}); see {@link #confirmed}. */
  void terminated(MailAddress address, Message message) {
    confirmed(address, message, Kind.TERM);
  }

  /** The two acknowledgements that end a message, with the body JetStream reads. */
  private enum Kind {
    ACK("+ACK"),
    TERM("+TERM");

    private final byte[] body;

    Kind(String body) {
      this.body = body.getBytes(StandardCharsets.US_ASCII);
    }

    void send(Message message) {
      if (this == ACK) {
        message.ack();
      } else {
        message.term();
      }
    }
  }

  /**
   * Sends an acknowledgement and makes sure the server has applied it before the status could show
   * the message as unread again: on a subscriber reader's thread, inside a batch, it is counted as
   * unconfirmed for its address and the reader confirms the whole batch at its end ({@link
   * #confirmBatch}); anywhere else it is sent as a request and waits (bounded) for the consumer's
   * reply. A flush is not enough: the server queues acknowledgements for the consumer and applies
   * them on another goroutine, so it may answer a flush first (CI saw an auto-acked fetch still
   * counted unread). One that is not confirmed in time is logged; the server hands the message out
   * again after its ack wait.
   */
  private void confirmed(MailAddress address, Message message, Kind kind) {
    Map<MailAddress, Batch> running = batch.get();
    if (running != null) {
      // Counted before the ack (never shown unread meanwhile), on the counter the batch took at
      // its first acknowledgement: the one its answer takes them off again, even after a stop.
      running.computeIfAbsent(address, a -> new Batch(unconfirmedOf(a))).sent(message);
      kind.send(message);
      return;
    }
    if (!message.isJetStream()) {
      return; // nothing to acknowledge
    }
    confirm(message, kind.body);
  }

  /**
   * Sends {@code body} to the message's acknowledgement subject as a request: JetStream answers
   * once the consumer has applied it, and it applies one connection's acknowledgements to a
   * consumer in order, so the answer also covers every earlier one.
   */
  private static void confirm(Message message, byte[] body) {
    try {
      if (message.getConnection().request(message.getReplyTo(), body, CONFIRM_BOUND) == null) {
        LOG.info("NATS did not confirm an acknowledgement in time; it may be redelivered");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.info(() -> "NATS did not take an acknowledgement (" + e + "); it may be redelivered");
    }
  }

  /** A batch's acknowledgements of one address: how many, and the last message they were for. */
  private static final class Batch {
    private final AtomicLong unconfirmed;
    private long count;
    private Message last;

    Batch(AtomicLong unconfirmed) {
      this.unconfirmed = unconfirmed;
    }

    void sent(Message message) {
      unconfirmed.incrementAndGet();
      count++;
      last = message;
    }
  }

  private AtomicLong unconfirmedOf(MailAddress address) {
    return unconfirmed.computeIfAbsent(address, a -> new AtomicLong());
  }

  /**
   * Runs a reader's batch of deliveries, then confirms the acknowledgements it sent with one round
   * trip per address (a progress request on its last message, which JetStream answers after the
   * acknowledgements before it) and takes exactly those off the unconfirmed counts once it is
   * answered. The reader does not wait for the answer: it was up to half of a consume's time (a
   * round trip of about a millisecond per batch of 256, measured with {@code bin/bench nats}), and
   * the counts keep the status right meanwhile.
   */
  void confirmBatch(Runnable deliveries) {
    Map<MailAddress, Batch> sent = new java.util.HashMap<>();
    batch.set(sent);
    try {
      deliveries.run();
    } finally {
      batch.remove();
      sent.forEach(this::confirmLater);
    }
  }

  private void confirmLater(MailAddress address, Batch acks) {
    // The count this batch raised: a provider stop clears the map, and a late answer must not take
    // its acknowledgements off the counts of the next start.
    AtomicLong count = acks.unconfirmed;
    Connection connection = acks.last.getConnection();
    if (connection.getStatus() != Connection.Status.CONNECTED) {
      // Nothing to wait for: the server redelivers what it did not get.
      count.addAndGet(-acks.count);
      return;
    }
    try {
      connection
          .requestWithTimeout(acks.last.getReplyTo(), IN_PROGRESS, CONFIRM_BOUND)
          // The client times requests out on a periodic sweep, up to a sweep later than asked.
          .orTimeout(CONFIRM_BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
          .whenComplete(
              (answer, failed) -> {
                count.addAndGet(-acks.count);
                // Cancelled: the connection closed (a stop); nothing to report.
                if (failed != null
                    && !(failed instanceof java.util.concurrent.CancellationException)) {
                  LOG.info(
                      () ->
                          "NATS did not confirm "
                              + acks.count
                              + " acknowledgements of "
                              + address
                              + " ("
                              + failed.getClass().getSimpleName()
                              + "); they may be redelivered");
                }
              });
    } catch (RuntimeException e) {
      count.addAndGet(-acks.count);
      LOG.info(() -> "NATS did not take a confirmation (" + e + "); it may be redelivered");
    }
  }
}
