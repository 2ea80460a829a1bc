package io.mailbox.connector.kernel;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.BoundsItsPublish;
import io.mailbox.connector.spi.PublishBound;
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The publish bound for a transport that does not bound its own ({@link BoundsItsPublish}): each
 * send runs on a thread of this watch while the caller waits at most the bound, then fails with
 * {@code MBX-2009}; the send itself goes on (a timeout is not proof of loss). At most {@value
 * #MAX_WAITING} sends of one provider wait at once: beyond that a post fails at once with the same
 * code, so a hung transport holds a bounded number of threads and never those of another provider.
 * Idle threads end after 30 s: a provider that stopped leaves none behind.
 */
final class PublishWatch {
  static final int MAX_WAITING = 64;
  static final String SETTING = "publishTimeoutMillis";

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(PublishWatch.class.getName());

  private final ThreadPoolExecutor threads;
  private volatile Duration bound = PublishBound.DEFAULT;

  private PublishWatch(String scheme) {
    AtomicInteger count = new AtomicInteger();
    threads =
        new ThreadPoolExecutor(
            0,
            MAX_WAITING,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            task -> {
              Thread thread =
                  new Thread(task, "mailbox-publish-" + scheme + "-" + count.incrementAndGet());
              thread.setDaemon(true);
              // The adapter's loader, never the caller's: a thread held by a hung send must not
              // keep an undeployed application's classes.
              thread.setContextClassLoader(PublishWatch.class.getClassLoader());
              return thread;
            });
  }

  /** The watch {@code transport} needs, or null when it bounds its own publish. */
  static PublishWatch of(Transport transport) {
    return transport instanceof BoundsItsPublish ? null : new PublishWatch(transport.scheme());
  }

  /** The bound; zero waits without one. */
  void setBound(Duration bound) {
    this.bound = bound; // checked by PostSender
  }

  /** Runs {@code send} (of a post to {@code address}) within the bound. */
  void send(MailAddress address, Runnable send) {
    Duration limit = bound;
    CompletableFuture<Void> sending;
    try {
      sending = CompletableFuture.runAsync(send, threads);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      throw new MailboxException(
          ErrorCode.PUBLISH_TIMEOUT,
          "The post to "
              + address
              + " was not sent: "
              + MAX_WAITING
              + " earlier posts still wait for the "
              + address.scheme()
              + ": provider to confirm them.",
          e);
    }
    try {
      if (limit.isZero()) {
        sending.get();
      } else {
        sending.get(limit.toNanos(), TimeUnit.NANOSECONDS);
      }
    } catch (TimeoutException e) {
      reportLateFailure(address, sending);
      throw PublishBound.exceeded(address, limit, SETTING, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MailboxException(
          ErrorCode.PUBLISH_TIMEOUT, "The post to " + address + " was interrupted.", e);
    } catch (ExecutionException e) {
      // Rethrown as the transport threw it (its stack is the watch thread's).
      // The transport's own failure, as if it had been thrown on the caller's thread.
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * The caller was told the post may still arrive; when the send then fails, it did not: said once,
   * the address and the failure's class only (no payload).
   */
  private static void reportLateFailure(MailAddress address, CompletableFuture<Void> sending) {
    sending.whenComplete(
        (done, failure) -> {
          if (failure != null) {
            Throwable cause = failure.getCause() == null ? failure : failure.getCause();
            LOG.warning(
                () ->
                    "A post to "
                        + address
                        + " that timed out failed afterwards: "
                        + cause.getClass().getName());
          }
        });
  }
}
