package io.mailbox.connector.provider.nats;

import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The pull requests a reader keeps ahead of itself: while it hands one batch over, the next is
 * already asked for (at most {@value #AHEAD} requests of {@value #BATCH}, each expiring after the
 * pull wait), so the server and the network work while the subscribers do — a synchronous {@code
 * fetch} waits for each batch in turn. The requests are tracked here (how many messages each may
 * still bring, when it expires), because the client does not say when a request has ended.
 *
 * <p>Messages a request brings are delivered to this process before anyone holds them: a reader
 * that stops {@link #drain}s them, so they can be handed back at once rather than after the ack
 * wait. Used by one reader thread only.
 */
final class PullAhead {
  static final int BATCH = 256;
  static final int AHEAD = 3;
  // A request counts as ended this long after its expiry (its last messages may still be on the
  // way). A stopping reader's drain waits until the pull wait plus this and the stop grace have
  // passed since its last request (0.75 s), then at most the stop grace more for what is queued.
  private static final long GRACE_NANOS = Duration.ofMillis(100).toNanos();
  // A stopping reader waits this much longer still: what it misses is held until the ack wait.
  // The client may be short of CPU (a busy host) and parse the last messages late.
  private static final long STOP_GRACE_NANOS = Duration.ofMillis(400).toNanos();

  private static final class Pull {
    final long endsAtNanos;
    int mayStillBring = BATCH;

    Pull(long endsAtNanos) {
      this.endsAtNanos = endsAtNanos;
    }
  }

  private final JetStreamSubscription subscription;
  private final Duration wait;
  private final Deque<Pull> outstanding = new ArrayDeque<>();
  private boolean anySent;
  private long lastEndsAtNanos;

  PullAhead(JetStreamSubscription subscription, Duration wait) {
    this.subscription = subscription;
    this.wait = wait;
  }

  /** Requests outstanding (a stopping reader drains them). */
  int outstanding() {
    forgetEnded();
    return outstanding.size();
  }

  /** Messages delivered to this process and not taken yet (the client's queue). */
  long queued() {
    return subscription.getPendingMessageCount();
  }

  /**
   * Sends requests until {@value #AHEAD} are outstanding, none while there is no room or while a
   * batch's worth already waits in the client's queue (a request that expired here may have
   * delivered its messages there: they count until they are taken).
   */
  void keepAhead(boolean room) {
    forgetEnded();
    while (room && outstanding.size() < AHEAD && queued() < BATCH) {
      subscription.pullExpiresIn(BATCH, wait);
      lastEndsAtNanos = System.nanoTime() + wait.toNanos() + GRACE_NANOS;
      anySent = true;
      outstanding.addLast(new Pull(lastEndsAtNanos));
    }
  }

  /**
   * The next batch: waits up to the pull wait for a first message, then takes what has arrived
   * behind it, at most {@value #BATCH}; empty when nothing came.
   */
  List<Message> nextBatch() throws InterruptedException {
    Message first = subscription.nextMessage(wait);
    if (first == null) {
      forgetEnded();
      return List.of();
    }
    List<Message> batch = new ArrayList<>();
    received(first, batch);
    while (batch.size() < BATCH && queued() > 0) {
      Message next = subscription.nextMessage(Duration.ofMillis(1));
      if (next == null) {
        break; // what was pending was a request's end, not a message
      }
      received(next, batch);
    }
    return batch;
  }

  /**
   * Stops asking: waits out the requests sent and returns what they still brought, with everything
   * already waiting in the client's queue.
   *
   * <p>Only the clock says when the last request has ended: the counts per request can be off (a
   * request that ended here may have its messages taken later and charged to the next one), and a
   * message that arrives after the reader unsubscribed is dropped by the client while the server
   * holds it as delivered until the ack wait. A request's end (a status, {@code null} here) is
   * skipped, not taken for the end of the queue. An error status (the consumer deleted) throws, as
   * in {@link #nextBatch}: the caller hands back nothing then, and the server redelivers after the
   * ack wait.
   */
  List<Message> drain() throws InterruptedException {
    List<Message> left = new ArrayList<>();
    if (anySent) {
      long until = lastEndsAtNanos + STOP_GRACE_NANOS;
      while (until - System.nanoTime() > 0) {
        Message message = subscription.nextMessage(Duration.ofMillis(20));
        if (message != null) {
          left.add(message);
        }
      }
    }
    long giveUpAt = System.nanoTime() + STOP_GRACE_NANOS;
    while (queued() > 0 && giveUpAt - System.nanoTime() > 0) {
      Message message = subscription.nextMessage(Duration.ofMillis(1));
      if (message != null) {
        left.add(message);
      }
    }
    outstanding.clear();
    return left;
  }

  private void received(Message message, List<Message> into) {
    into.add(message);
    Pull head = outstanding.peekFirst();
    if (head != null && --head.mayStillBring == 0) {
      outstanding.removeFirst();
    }
  }

  private void forgetEnded() {
    long now = System.nanoTime();
    while (!outstanding.isEmpty() && now - outstanding.peekFirst().endsAtNanos > 0) {
      outstanding.removeFirst();
    }
  }
}
