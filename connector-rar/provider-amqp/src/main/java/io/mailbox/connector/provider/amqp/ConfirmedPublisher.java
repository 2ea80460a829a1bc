package io.mailbox.connector.provider.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.PublishBound;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes through one confirm-mode channel: a publish is done only when RabbitMQ confirmed it.
 * Publishes are mandatory, so a message no queue took (the queue was deleted) fails instead of
 * vanishing behind a positive confirm. Many callers share the channel; each waits for its own
 * confirms, and one broker ack may confirm many (AMQP's "multiple"), which is what makes a batch
 * cheap.
 *
 * <p>Every wait is bounded. A timeout or a channel that closes first fails the publish with a
 * message saying it is not proof of loss: RabbitMQ may still have stored it.
 */
final class ConfirmedPublisher {
  /** One message to publish to a queue through the default exchange. */
  record Outgoing(
      MailAddress address, String queue, String key, AMQP.BasicProperties properties, byte[] body) {

    /** A stamped copy on its way to {@code queue}, keyed by its send id. */
    static Outgoing of(MailAddress address, String queue, MailMessage copy) {
      return new Outgoing(
          address,
          queue,
          copy.sendId().orElseThrow(),
          AmqpMessages.properties(copy),
          AmqpMessages.body(copy));
    }
  }

  private final Channel channel;
  private final Duration timeout;
  private final ConcurrentNavigableMap<Long, Pending> outstanding = new ConcurrentSkipListMap<>();
  private final Map<String, Pending> byKey = new ConcurrentHashMap<>();

  private static final class Pending {
    final String key;
    final MailAddress address;
    final CompletableFuture<Void> confirmed = new CompletableFuture<>();
    volatile boolean returned;

    Pending(String key, MailAddress address) {
      this.key = key;
      this.address = address;
    }
  }

  ConfirmedPublisher(Connection connection, Duration timeout) throws IOException {
    this.channel = connection.createChannel();
    this.timeout = timeout;
    channel.confirmSelect();
    channel.addConfirmListener(this::confirmed, this::refused);
    channel.addReturnListener(
        returned -> {
          Object key = returned.getProperties().getHeaders() == null ? null : keyOf(returned);
          Pending pending = key == null ? null : byKey.get(key.toString());
          if (pending != null) {
            pending.returned = true;
          }
        });
    // A closed channel will never confirm what it holds; its sequence numbers restart after a
    // recovery, so nothing of the old channel may stay in the map.
    channel.addShutdownListener(this::closed);
  }

  private static Object keyOf(com.rabbitmq.client.Return returned) {
    return returned
        .getProperties()
        .getHeaders()
        .get(io.mailbox.connector.api.SystemHeaders.SEND_ID);
  }

  /** Publishes every message, in order, and returns once RabbitMQ confirmed all of them. */
  void publishAll(List<Outgoing> messages) {
    List<Pending> pendings = new ArrayList<>(messages.size());
    synchronized (this) {
      for (Outgoing message : messages) {
        Pending pending = new Pending(message.key(), message.address());
        long sequence = channel.getNextPublishSeqNo();
        outstanding.put(sequence, pending);
        byKey.put(message.key(), pending);
        pendings.add(pending);
        try {
          channel.basicPublish("", message.queue(), true, message.properties(), message.body());
        } catch (IOException | RuntimeException e) {
          outstanding.remove(sequence);
          pendings.forEach(p -> byKey.remove(p.key));
          throw unavailable(pendings.size() - 1, messages.size(), e);
        }
      }
    }
    awaitAll(pendings);
  }

  private void awaitAll(List<Pending> pendings) {
    Pending unconfirmed = pendings.get(0);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      for (Pending pending : pendings) {
        unconfirmed = pending;
        long left = deadline - System.nanoTime();
        pending.confirmed.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      }
    } catch (TimeoutException e) {
      throw PublishBound.exceeded(unconfirmed.address, timeout, "amqpPublishTimeoutMillis", e);
    } catch (ExecutionException e) {
      throw (RuntimeException) e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MailboxException(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "Interrupted while waiting for RabbitMQ to confirm the post; it may or may not be stored.");
    } finally {
      pendings.forEach(p -> byKey.remove(p.key));
    }
  }

  private void confirmed(long sequence, boolean multiple) {
    for (Pending pending : take(sequence, multiple)) {
      if (pending.returned) {
        pending.confirmed.completeExceptionally(
            new MailboxException(
                ErrorCode.CONNECTION_UNAVAILABLE,
                "RabbitMQ had no queue to route the post to (was the queue deleted?); nothing was"
                    + " stored."));
      } else {
        pending.confirmed.complete(null);
      }
    }
  }

  private void refused(long sequence, boolean multiple) {
    for (Pending pending : take(sequence, multiple)) {
      pending.confirmed.completeExceptionally(
          new MailboxException(
              ErrorCode.CONNECTION_UNAVAILABLE,
              "RabbitMQ refused the post (negative confirm: an internal error or a full queue);"
                  + " it was not stored."));
    }
  }

  private List<Pending> take(long sequence, boolean multiple) {
    List<Pending> done = new ArrayList<>();
    if (multiple) {
      var head = outstanding.headMap(sequence, true);
      done.addAll(head.values());
      head.clear();
    } else {
      Pending one = outstanding.remove(sequence);
      if (one != null) {
        done.add(one);
      }
    }
    return done;
  }

  private void closed(ShutdownSignalException cause) {
    for (Long sequence : List.copyOf(outstanding.keySet())) {
      Pending pending = outstanding.remove(sequence);
      if (pending != null) {
        pending.confirmed.completeExceptionally(
            new MailboxException(
                ErrorCode.CONNECTION_UNAVAILABLE,
                "The RabbitMQ channel closed before the post was confirmed ("
                    + (cause.isHardError() ? "connection" : "channel")
                    + " closed). This is not proof it was lost: it may be stored, so posting it"
                    + " again can duplicate it."));
      }
    }
  }

  private static MailboxException unavailable(int published, int total, Exception cause) {
    return new MailboxException(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "RabbitMQ is not reachable ("
            + cause.getClass().getSimpleName()
            + "); "
            + (total == 1
                ? "the post was not sent."
                : published + " of the " + total + " posts were sent, none is confirmed."));
  }

  void close() {
    try {
      if (channel.isOpen()) {
        channel.close();
      }
    } catch (IOException | TimeoutException | RuntimeException e) {
      // Closing a channel of a broken connection: nothing to release.
    }
  }
}
