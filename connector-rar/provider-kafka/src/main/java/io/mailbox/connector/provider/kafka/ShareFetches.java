package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.provider.kafka.ShareReader.Pending;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fetches from one {@link ShareReader}: a caller's request waits in a queue that the poll thread
 * answers between polls, with the records it holds acquired, polling for more while a request
 * waits. A share group has no end to read up to (other members take records too), so a fetch
 * answers as soon as it has records, or with none once a poll of a member that had time to join
 * found nothing, or at its deadline. An auto-ack fetch accepts its records only once the caller has
 * them; a caller that gave up gets nothing, and its records go back to the head of the backlog.
 */
final class ShareFetches {
  /** How long one poll waits for records while a fetch waits. */
  static final Duration POLL_STEP = Duration.ofMillis(100);

  private static final Duration ANSWER_GRACE = Duration.ofSeconds(10);
  // A new member needs a moment to join its share group; an empty poll before that proves nothing.
  private static final Duration JOIN_TIME = Duration.ofSeconds(3);

  private record Request(
      CompletableFuture<List<MailMessage>> answer,
      int limit,
      long deadlineNanos,
      boolean settle,
      long emptyPollsBefore) {}

  private final ShareReader reader;
  private final ConcurrentLinkedQueue<Request> queued = new ConcurrentLinkedQueue<>();
  private final long startedNanos = System.nanoTime();
  private volatile long emptyPolls;
  private volatile boolean gotRecords;

  ShareFetches(ShareReader reader) {
    this.reader = reader;
  }

  /** Up to {@code limit} records within {@code wait}; see the class comment. */
  List<MailMessage> take(int limit, Duration wait, boolean settleAtOnce) {
    CompletableFuture<List<MailMessage>> answer = new CompletableFuture<>();
    queued.add(
        new Request(answer, limit, System.nanoTime() + wait.toNanos(), settleAtOnce, emptyPolls));
    try {
      return answer.get(wait.plus(ANSWER_GRACE).toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw (RuntimeException) e.getCause();
    } catch (TimeoutException e) {
      // A late answer puts its records back instead of losing them; one that came in between
      // the timeout and the cancel is the caller's.
      return answer.cancel(false) ? List.of() : answer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return answer.cancel(false) ? List.of() : answer.join();
    }
  }

  /** Whether a fetch waits for records (the reader then polls). */
  boolean waiting() {
    return !queued.isEmpty();
  }

  /** A poll brought {@code count} records. */
  void polled(int count) {
    if (count == 0) {
      emptyPolls++;
    } else {
      gotRecords = true;
    }
  }

  /** Answers the fetches that can be answered now, oldest first (on the poll thread). */
  void answerWaiting() {
    Request request;
    while ((request = queued.peek()) != null) {
      if (request.answer().isDone()) {
        queued.poll();
        continue;
      }
      List<Pending> got = new ArrayList<>();
      Pending next;
      while (got.size() < request.limit() && (next = reader.nextQueued()) != null) {
        reader.handOut(next);
        got.add(next);
      }
      boolean foundNothing = joined() && emptyPolls > request.emptyPollsBefore();
      if (got.isEmpty() && !foundNothing && System.nanoTime() < request.deadlineNanos()) {
        return; // poll first
      }
      queued.poll();
      answer(request, got);
    }
  }

  /** The reader stops: every waiting fetch gets nothing. */
  void answerAllEmpty() {
    Request request;
    while ((request = queued.poll()) != null) {
      request.answer().complete(List.of());
    }
  }

  private boolean joined() {
    return gotRecords || System.nanoTime() - startedNanos > JOIN_TIME.toNanos();
  }

  private void answer(Request request, List<Pending> got) {
    if (request.answer().complete(got.stream().map(Pending::copy).toList())) {
      if (request.settle()) {
        got.forEach(reader::settleTaken);
      }
    } else {
      for (int i = got.size() - 1; i >= 0; i--) {
        reader.putBack(got.get(i));
      }
    }
  }
}
