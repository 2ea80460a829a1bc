package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Acknowledgements (ack, term) the server is known to have before the status could show their
 * messages as unread again: a reader's batch confirms all of its own with one round trip ({@code
 * flush}: the server has read them, in order, before it answers), any other waits for its own.
 * Until a batch is confirmed its acknowledgements are counted per address ({@link #unconfirmed}).
 */
final class Acknowledgements {
  private static final Logger LOG = Logger.getLogger(Acknowledgements.class.getName());
  private static final Duration CONFIRM_BOUND = Duration.ofSeconds(5);

  private final NatsLink link;
  private final Map<MailAddress, AtomicLong> unconfirmed = new ConcurrentHashMap<>();
  private final ThreadLocal<Map<MailAddress, Long>> batch = new ThreadLocal<>();

  Acknowledgements(NatsLink link) {
    this.link = link;
  }

  /** Acknowledgements of {@code address} sent by a batch and not confirmed yet. */
  long unconfirmed(MailAddress address) {
    AtomicLong count = unconfirmed.get(address);
    return count == null ? 0 : count.get();
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
      this.body = body.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
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
   * unconfirmed for its address and the reader confirms the whole batch with one round trip ({@link
   * #confirmBatch}); anywhere else it is sent as a request and waits (bounded) for the consumer's
   * reply. A flush alone is not enough there: the server queues acknowledgements for the consumer
   * and may answer the flush before it has applied them (CI saw an auto-acked fetch still counted
   * unread). One that is not confirmed in time is logged; the server hands the message out again
   * after its ack wait.
   */
  private void confirmed(MailAddress address, Message message, Kind kind) {
    Map<MailAddress, Long> running = batch.get();
    if (running != null) {
      unconfirmedOf(address).incrementAndGet(); // before the ack: never shown unread meanwhile
      running.merge(address, 1L, Long::sum);
      kind.send(message);
      return;
    }
    String replyTo = message.getReplyTo();
    if (replyTo == null) { // not a JetStream message: nothing to confirm
      kind.send(message);
      return;
    }
    try {
      if (message.getConnection().request(replyTo, kind.body, CONFIRM_BOUND) == null) {
        LOG.fine(() -> "NATS did not confirm an acknowledgement in time (redelivered later)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.fine(() -> "NATS did not confirm an acknowledgement in time (redelivered later)");
    }
  }

  private AtomicLong unconfirmedOf(MailAddress address) {
    return unconfirmed.computeIfAbsent(address, a -> new AtomicLong());
  }

  /**
   * Runs a reader's batch of deliveries, then confirms the acknowledgements it sent with one round
   * trip and takes exactly those off the unconfirmed counts.
   */
  void confirmBatch(Runnable deliveries) {
    Map<MailAddress, Long> sent = new java.util.HashMap<>();
    batch.set(sent);
    try {
      deliveries.run();
    } finally {
      batch.remove();
      if (!sent.isEmpty()) {
        try {
          flush(link.connection());
        } catch (RuntimeException notConnected) {
          LOG.fine(() -> "A batch's acknowledgements were not confirmed (redelivered later)");
        }
        sent.forEach((address, count) -> unconfirmedOf(address).addAndGet(-count));
      }
    }
  }

  private static void flush(Connection connection) {
    try {
      connection.flush(CONFIRM_BOUND);
    } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
      LOG.fine(() -> "NATS did not confirm acknowledgements in time (redelivered later)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
